// The Slurm executor: the pending points become one job array. Submission n
// writes OUT/slurm/tasks-n.json (array task i -> its point hashes) and
// OUT/slurm/job-n.sh, which runs `simtlm sweep task OUT --tasks ... --index
// $SLURM_ARRAY_TASK_ID`; each task publishes its points into OUT/points with
// the same atomic rename as the local executor. OUT/slurm/job.json names the
// last submission's job, for `sweep status`, `--wait` and resubmission.
#include <cctype>
#include <fstream>
#include <map>
#include <ostream>
#include <thread>

#include "apps/output_files.h"
#include "apps/sweep/sweep_exec.h"
#include "simtlm/error.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

namespace {

std::string trim(std::string s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
  size_t start = 0;
  while (start < s.size() && std::isspace(static_cast<unsigned char>(s[start]))) ++start;
  return s.substr(start);
}

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

Json read_json(const fs::path& path) {
  std::ifstream in(path);
  if (!in) return Json();
  try {
    return Json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw Error(ErrorKind::Input, path.string() + ": malformed JSON: " + e.what());
  }
}

}  // namespace

std::string slurm_submit(const Plan& plan, const PointStore& store, const std::vector<size_t>& todo,
                         const SlurmOptions& slurm, const ExecOptions& exec, std::ostream& err) {
  const fs::path out = fs::absolute(store.out_dir());
  const fs::path dir = out / "slurm";
  fs::create_directories(dir / "logs");
  const Json last = read_json(dir / "job.json");
  const int submission = last.is_object() ? last.value("submission", 0) + 1 : 1;
  const std::string n = std::to_string(submission);

  const size_t per_task = slurm.points_per_task == 0 ? 1 : slurm.points_per_task;
  Json tasks = Json::array();
  for (size_t i = 0; i < todo.size(); i += per_task) {
    Json hashes = Json::array();
    for (size_t j = i; j < todo.size() && j < i + per_task; ++j) hashes.push_back(plan.points[todo[j]].hash);
    tasks.push_back(hashes);
  }
  const fs::path tasks_file = dir / ("tasks-" + n + ".json");
  write_file_atomic(tasks_file, tasks.dump(1) + "\n");
  std::string script = "#!/bin/sh\n# simtlm sweep '" + plan.name + "', submission " + n +
                       ": array task i runs the points listed at index i of " + tasks_file.filename().string() + ".\n" +
                       "exec " + shell_quote(exec.exe) + " sweep task " + shell_quote(out.string()) + " --tasks " +
                       shell_quote(tasks_file.string()) + " --index \"$SLURM_ARRAY_TASK_ID\"";
  if (exec.point_timeout > 0) script += " --point-timeout " + std::to_string(exec.point_timeout);
  script += "\n";
  const fs::path script_file = dir / ("job-" + n + ".sh");
  write_file_atomic(script_file, script);
  fs::permissions(script_file, fs::perms::owner_exec, fs::perm_options::add);

  std::string array = "--array=0-" + std::to_string(tasks.size() - 1);
  if (slurm.max_running > 0) array += "%" + std::to_string(slurm.max_running);
  std::vector<std::string> command = {"sbatch", "--parsable", "--job-name=simtlm-sweep-" + plan.name, array,
                                      "--output=" + (dir / "logs" / (n + "-%a.out")).string(),
                                      "--chdir=" + out.string(), "--ntasks=1"};
  if (!slurm.partition.empty()) command.push_back("--partition=" + slurm.partition);
  if (!slurm.account.empty()) command.push_back("--account=" + slurm.account);
  if (!slurm.time.empty()) command.push_back("--time=" + slurm.time);
  command.push_back(script_file.string());
  const Captured c = capture(command);
  if (c.exit_code != 0) throw Error(ErrorKind::Input, "sbatch failed: " + trim(c.output));
  std::string job = trim(c.output);
  job = job.substr(0, job.find(';'));  // "id;cluster"
  if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos)
    throw Error(ErrorKind::Input, "sbatch printed no job id: '" + trim(c.output) + "'");
  Json record = {{"job", job}, {"submission", submission}, {"tasks", tasks.size()}, {"points", todo.size()},
                 {"script", script_file.string()}};
  write_file_atomic(dir / "job.json", record.dump(2) + "\n");
  err << "sweep: submitted Slurm job " << job << ": " << tasks.size() << " array task(s) for " << todo.size()
      << " point(s) (submission " << n << ")\n";
  return job;
}

std::string slurm_active_job(const fs::path& out_dir, std::string* states, std::string* held) {
  const Json record = read_json(out_dir / "slurm" / "job.json");
  if (!record.is_object() || !record.contains("job")) return "";
  const std::string job = record.at("job").get<std::string>();
  const Captured c = capture({"squeue", "-h", "-r", "-j", job, "-o", "%T|%r"});
  if (c.exit_code != 0) {
    if (c.output.find("Invalid job id") != std::string::npos) return "";  // long gone
    throw Error(ErrorKind::Input, "squeue failed: " + trim(c.output));
  }
  std::map<std::string, size_t> count;
  size_t lines = 0, held_lines = 0;
  std::string reason;
  for (size_t pos = 0; pos < c.output.size();) {
    size_t end = c.output.find('\n', pos);
    if (end == std::string::npos) end = c.output.size();
    const std::string line = trim(c.output.substr(pos, end - pos));
    pos = end + 1;
    if (line.empty()) continue;
    const size_t bar = line.find('|');
    const std::string state = line.substr(0, bar);
    ++count[state];
    ++lines;
    const std::string why = bar == std::string::npos ? "" : line.substr(bar + 1);
    if (state == "PENDING" && why.find("held") != std::string::npos) {
      ++held_lines;
      reason = why;
    }
  }
  if (lines == 0) return "";
  if (states) {
    states->clear();
    for (const auto& [state, k] : count) *states += (states->empty() ? "" : ", ") + std::to_string(k) + " " + state;
  }
  if (held) *held = held_lines == lines ? reason : "";
  return job;
}

void slurm_wait(const Plan& plan, const PointStore& store, const std::string& job, const ExecOptions& exec,
                std::ostream& err) {
  const auto start = std::chrono::steady_clock::now();
  auto last_line = start;
  while (true) {
    std::string states, held;
    const bool active = !slurm_active_job(store.out_dir(), &states, &held).empty();
    if (active && !held.empty())
      throw Error(ErrorKind::Input, "Slurm holds every remaining task of job " + job + " (" + held +
                                        "): they will not run; see " + (store.out_dir() / "slurm" / "logs").string() +
                                        " and slurmd's log, then `scancel " + job + "` and resubmit");
    size_t ok = 0, failed = 0;
    for (const PlanPoint& p : plan.points) {
      std::optional<PointResult> r = store.result(p.hash);
      if (r) (r->ok ? ok : failed)++;
    }
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const std::string text = progress_text(ok, plan.points.size(), store.temporaries(), failed, elapsed, -1) +
                             (active ? " (job " + job + ": " + states + ")" : "");
    if (exec.tty) {
      err << "\r\033[K" << text << std::flush;
    } else if (std::chrono::duration<double>(now - last_line).count() >= exec.report_every || !active) {
      err << text << "\n" << std::flush;
      last_line = now;
    }
    if (!active) break;
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  if (exec.tty) err << "\n";
}

int slurm_task(const fs::path& out_dir, const std::string& tasks_file, size_t index, double point_timeout,
               std::ostream& err) {
  const Plan plan = load_plan(out_dir);
  check_same_build(plan, out_dir.string());  // rebuilt between submission and start
  const PointStore store(out_dir);
  const Json tasks = read_json(tasks_file);
  if (!tasks.is_array()) throw Error(ErrorKind::Input, "'" + tasks_file + "' is not a task list of this sweep");
  if (index >= tasks.size())
    throw Error(ErrorKind::Usage, "--index " + std::to_string(index) + " is past the " + std::to_string(tasks.size()) +
                                      " tasks of '" + tasks_file + "'");
  std::vector<size_t> todo;
  for (const Json& h : tasks[index]) {
    const std::string hash = h.get<std::string>();
    size_t i = 0;
    while (i < plan.points.size() && plan.points[i].hash != hash) ++i;
    if (i == plan.points.size()) throw Error(ErrorKind::Input, "point " + hash + " is not in the sweep's plan");
    std::optional<PointResult> done = store.result(hash);
    if (!done || !done->ok) todo.push_back(i);  // a rerun task skips what is already done
  }
  ExecOptions exec;
  exec.jobs = 1;
  exec.point_timeout = point_timeout;
  exec.exe = self_executable();
  const ExecSummary s = run_points(plan, store, todo, exec, err, 0);
  err << "sweep task " << index << ": " << s.ok << " ok, " << s.failed << " failed\n";
  return 0;
}

}  // namespace simtlm::cli::sweep
