// `simtlm sweep`: run a study (workloads x configurations) as one process per
// point, locally or as a Slurm job array; `sweep status`, `sweep report`.
// The pieces live in apps/sweep/ (spec and plan, point store, executors,
// results, report); this file is the command line.
#include <iomanip>
#include <ostream>
#include <sstream>
#include <thread>

#include "apps/sim_options.h"
#include "apps/sweep/sweep_exec.h"
#include "apps/sweep/sweep_report.h"
#include "apps/sweep/sweep_results.h"

namespace simtlm::cli {

namespace {

namespace fs = std::filesystem;
using namespace sweep;

const char* kSweepUsage =
    "usage: simtlm sweep SPEC.json [--out DIR] [--jobs N] [--executor local|slurm] [options]\n"
    "       simtlm sweep --resume --out DIR [options]\n"
    "       simtlm sweep status DIR\n"
    "       simtlm sweep report DIR [--out REPORT_DIR] [--no-plots]\n"
    "\n"
    "Runs every point of a study (workloads x configurations, docs/sweeps.md) as its\n"
    "own `simtlm run`/`simtlm ptx --launch` process, each into DIR/points/<hash>/, and\n"
    "writes DIR/results.csv and DIR/results.jsonl. The spec is validated before\n"
    "anything runs. Points already done in DIR are not run again: a rerun (or\n"
    "--resume, which needs no SPEC) runs only the missing and failed ones.\n"
    "With --executor slurm the points become one Slurm job array (sbatch --array).\n"
    "\n"
    "`status` reports what is on disk (and the Slurm job) and refreshes the results;\n"
    "`report` writes report.md (tables per metric, raw and normalised to the\n"
    "baseline, geometric means) and PNG/SVG plots into DIR/report.\n"
    "\n"
    "Exit status: 0 every point succeeded, 1 some point failed (listed; the results\n"
    "record them), 2 bad spec or options, 4 internal error.\n";

void reject_sweep_args(const po::variables_map& vm, std::initializer_list<const char*> options,
                       const std::string& why) {
  for (const char* o : options)
    if (vm.count(o) && !vm[o].defaulted()) usage_error(std::string("--") + o + " " + why);
}

int finish(Io& io, const Plan& plan, const PointStore& store) {
  const Results results = collect_results(plan, store);
  write_results(store.out_dir(), plan, results);
  io.out << results_summary(plan, results);
  io.out << "sweep: results in " << (store.out_dir() / "results.csv").string() << " and results.jsonl\n";
  return results.failed == 0 && results.missing == 0 ? kExitOk : kExitMismatch;
}

int sweep_status(const std::vector<std::string>& args, Io& io) {
  if (args.size() != 1 || args[0].empty() || args[0][0] == '-') usage_error("expected `simtlm sweep status DIR`");
  const Plan plan = load_plan(args[0]);
  const PointStore store(args[0]);
  const Results results = collect_results(plan, store);
  write_results(store.out_dir(), plan, results);
  io.out << "sweep '" << plan.name << "' in " << args[0] << ": " << results.ok << "/" << plan.points.size()
         << " points done, " << results.failed << " failed, " << results.missing << " missing";
  if (const size_t running = store.temporaries()) io.out << ", " << running << " in progress";
  io.out << "\n";
  std::string states;
  if (fs::exists(fs::path(args[0]) / "slurm" / "job.json")) {
    const std::string job = slurm_active_job(args[0], &states);
    io.out << (job.empty() ? "slurm: the last job array has finished\n" : "slurm: job " + job + ": " + states + "\n");
  }
  for (size_t r = 0; r < plan.rows.size(); ++r)
    for (size_t c = 0; c < plan.columns.size(); ++c) {
      const Cell& cell = results.cells[r][c];
      if (cell.result && !cell.result->ok)
        io.out << "  failed: " << plan.rows[r].label << " @ " << plan.columns[c].label << ": " << cell.result->message
               << "\n";
    }
  return kExitOk;
}

int sweep_report(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()("help,h", "show this help")(
      "out", po::value<std::string>()->value_name("DIR"), "where to write the report (default: DIR/report)")(
      "no-plots", po::bool_switch(), "tables only (no matplotlib needed)");
  po::options_description all;
  all.add(desc).add_options()("dir", po::value<std::string>(), "sweep folder");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << "usage: simtlm sweep report DIR [--out REPORT_DIR] [--no-plots]\n\n" << desc;
    return kExitOk;
  }
  if (!vm.count("dir")) usage_error("expected `simtlm sweep report DIR`");
  const fs::path dir = vm["dir"].as<std::string>();
  const Plan plan = load_plan(dir);
  const PointStore store(dir);
  const Results results = collect_results(plan, store);
  write_results(dir, plan, results);
  const fs::path report_dir = vm.count("out") ? fs::path(vm["out"].as<std::string>()) : dir / "report";
  const ReportFiles files =
      write_report(plan, results, report_dir, !vm["no-plots"].as<bool>(), SIMTLM_SCRIPT_DIR "/sweep_plot.py");
  io.out << "sweep: report in " << files.markdown.string() << "\n";
  for (const fs::path& p : files.plots) io.out << "sweep: plot " << p.string() << "\n";
  return kExitOk;
}

int sweep_task(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()("tasks", po::value<std::string>()->required(), "task list")(
      "index", po::value<std::string>()->required(), "array task index")(
      "point-timeout", po::value<double>()->default_value(0), "seconds");
  po::options_description all;
  all.add(desc).add_options()("dir", po::value<std::string>()->required(), "sweep folder");
  po::positional_options_description positional;
  positional.add("dir", 1);
  po::variables_map vm = parse_options(args, all, positional);
  const size_t index = parse_uint(vm["index"].as<std::string>(), "--index", 0, 1u << 30);
  return slurm_task(vm["dir"].as<std::string>(), vm["tasks"].as<std::string>(), index,
                    vm["point-timeout"].as<double>(), io.err);
}

}  // namespace

int cmd_sweep(const std::vector<std::string>& args, Io& io) {
  if (!args.empty() && args[0] == "status") return sweep_status({args.begin() + 1, args.end()}, io);
  if (!args.empty() && args[0] == "report") return sweep_report({args.begin() + 1, args.end()}, io);
  // The job script of a Slurm array task (not for direct use).
  if (!args.empty() && args[0] == "task") return sweep_task({args.begin() + 1, args.end()}, io);

  po::options_description desc("Options", 100);
  desc.add_options()
      ("help,h", "show this help")
      ("out", po::value<std::string>()->value_name("DIR"), "the sweep's folder (default: sweeps/<name>)")
      ("jobs,j", po::value<std::string>()->value_name("N"), "points run at a time (local; default: the number of cores)")
      ("executor", po::value<std::string>()->default_value("local")->value_name("NAME"), "local | slurm")
      ("resume", po::bool_switch(), "continue the sweep in --out DIR from its saved plan (no SPEC)")
      ("point-timeout", po::value<double>()->value_name("SECONDS"), "time limit of one point (default: the spec's, or none)")
      ("dry-run", po::bool_switch(), "validate the spec and list the points; run nothing")
      ("wait", po::bool_switch(), "slurm: block until the job array finishes, then write the results")
      ("max-running", po::value<std::string>()->value_name("N"), "slurm: array tasks running at once (--array=...%N)")
      ("points-per-task", po::value<std::string>()->value_name("N"), "slurm: points per array task (default 1)")
      ("partition", po::value<std::string>()->value_name("NAME"), "slurm: sbatch --partition")
      ("account", po::value<std::string>()->value_name("NAME"), "slurm: sbatch --account")
      ("time", po::value<std::string>()->value_name("LIMIT"), "slurm: sbatch --time (per array task)");
  po::options_description all;
  all.add(desc).add_options()("spec", po::value<std::string>(), "sweep spec");
  po::positional_options_description positional;
  positional.add("spec", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << kSweepUsage << "\n" << desc;
    return kExitOk;
  }
  const std::string executor = vm["executor"].as<std::string>();
  if (executor != "local" && executor != "slurm")
    usage_error("unknown --executor '" + executor + "' (expected local or slurm)");
  if (executor == "local")
    reject_sweep_args(vm, {"wait", "max-running", "points-per-task", "partition", "account", "time"},
                      "is an option of --executor slurm");
  const bool resume = vm["resume"].as<bool>();
  if (resume && !vm.count("out")) usage_error("--resume needs --out DIR (the sweep to continue)");
  if (!resume && !vm.count("spec")) usage_error("missing the spec (simtlm sweep SPEC.json), or --resume --out DIR");

  Plan plan = vm.count("spec") ? plan_from_spec(vm["spec"].as<std::string>(), version(), build_id())
                               : load_plan(vm["out"].as<std::string>());
  if (!vm.count("spec")) check_same_build(plan, vm["out"].as<std::string>());
  const fs::path out = vm.count("out") ? fs::path(vm["out"].as<std::string>()) : fs::path("sweeps") / plan.name;
  ExecOptions exec;
  exec.jobs = vm.count("jobs") ? static_cast<unsigned>(parse_uint(vm["jobs"].as<std::string>(), "--jobs", 1, 4096))
                               : std::max(1u, std::thread::hardware_concurrency());
  exec.point_timeout = plan.point_timeout;
  if (vm.count("point-timeout")) {
    exec.point_timeout = vm["point-timeout"].as<double>();
    if (!(exec.point_timeout > 0)) usage_error("--point-timeout must be a positive number of seconds");
  }
  exec.tty = io.progress;

  if (vm["dry-run"].as<bool>()) {
    io.out << "sweep '" << plan.name << "': " << plan.rows.size() << " row(s) x " << plan.columns.size()
           << " configuration(s): " << plan.points.size() << " distinct point(s); baseline "
           << plan.columns[plan.baseline].label << "\n";
    for (size_t r = 0; r < plan.rows.size(); ++r)
      for (size_t c = 0; c < plan.columns.size(); ++c)
        io.out << "  " << plan.points[plan.cells[r][c]].hash << "  " << plan.rows[r].label << " @ "
               << plan.columns[c].label << "\n";
    return kExitOk;
  }

  const PointStore store(out);
  if (fs::exists(out / "slurm" / "job.json")) {
    const std::string job = slurm_active_job(out);
    if (!job.empty())
      usage_error("Slurm job " + job + " of this sweep is still queued or running (simtlm sweep status " +
                  out.string() + "; scancel " + job + " to stop it)");
  }
  store.remove_temporaries();  // left by a killed sweep or a killed task
  save_plan(out, plan);
  const std::vector<size_t> todo = store.pending(plan);
  exec.exe = self_executable();
  if (todo.size() < plan.points.size())
    io.err << "sweep: " << plan.points.size() - todo.size() << " of " << plan.points.size()
           << " points already done in " << out.string() << "\n";

  if (executor == "slurm") {
    if (todo.empty()) return finish(io, plan, store);
    SlurmOptions slurm;
    slurm.wait = vm["wait"].as<bool>();
    if (vm.count("max-running"))
      slurm.max_running = static_cast<unsigned>(parse_uint(vm["max-running"].as<std::string>(), "--max-running", 1, 1u << 20));
    if (vm.count("points-per-task"))
      slurm.points_per_task =
          static_cast<unsigned>(parse_uint(vm["points-per-task"].as<std::string>(), "--points-per-task", 1, 1u << 20));
    if (vm.count("partition")) slurm.partition = vm["partition"].as<std::string>();
    if (vm.count("account")) slurm.account = vm["account"].as<std::string>();
    if (vm.count("time")) slurm.time = vm["time"].as<std::string>();
    const std::string job = slurm_submit(plan, store, todo, slurm, exec, io.err);
    if (!slurm.wait) {
      io.out << "sweep: job " << job << " submitted; `simtlm sweep status " << out.string()
             << "` shows its progress (rerun with the same --out to resubmit what is missing or failed)\n";
      return kExitOk;
    }
    slurm_wait(plan, store, job, exec, io.err);
    return finish(io, plan, store);
  }

  const ExecSummary s = run_points(plan, store, todo, exec, io.err, plan.points.size() - todo.size());
  if (s.ran > 0) {
    double host = 0;
    for (size_t i : todo)
      if (std::optional<PointResult> r = store.result(plan.points[i].hash)) host += r->host_seconds;
    std::ostringstream line;
    line << std::fixed << std::setprecision(2) << "sweep: ran " << s.ran << " point(s) in " << s.wall_seconds
         << " s with --jobs " << exec.jobs << " (points' own host time " << host << " s)\n";
    io.err << line.str();
  }
  return finish(io, plan, store);
}

}  // namespace simtlm::cli
