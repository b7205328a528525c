// Running a sweep's points: the local process pool (also what a Slurm task
// runs, with one job), the progress line, and the Slurm executor.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "apps/sweep/sweep_plan.h"
#include "apps/sweep/sweep_points.h"

namespace simtlm::cli::sweep {

struct ExecOptions {
  unsigned jobs = 1;
  double point_timeout = 0;   // seconds, 0 = none
  std::string exe;            // the simtlm program the points run
  bool tty = false;           // live progress line (else a plain line every report_every s)
  double report_every = 10;
};

struct ExecSummary {
  size_t ran = 0, ok = 0, failed = 0;
  double wall_seconds = 0;
};

// Runs plan.points[i] for every i in `todo`, `jobs` at a time, each in its own
// process; failures are recorded, not thrown. `done_before` counts the points
// finished earlier (for the progress line's done/total).
ExecSummary run_points(const Plan& plan, const PointStore& store, const std::vector<size_t>& todo,
                       const ExecOptions& options, std::ostream& err, size_t done_before);

// "sweep: 12/40 done, 2 running, 1 failed, 0:31 elapsed, ETA 1:10"
std::string progress_text(size_t done, size_t total, size_t running, size_t failed, double elapsed, double eta);

// The Slurm executor (sweep_slurm.cpp).
struct SlurmOptions {
  unsigned max_running = 0;   // array throttle (%N), 0 = none
  unsigned points_per_task = 1;
  std::string partition, account, time;
  bool wait = false;
};

// Submits the pending points as one job array; returns the job id.
std::string slurm_submit(const Plan& plan, const PointStore& store, const std::vector<size_t>& todo,
                         const SlurmOptions& slurm, const ExecOptions& exec, std::ostream& err);
// The array job of the last submission into `out_dir` if it is still queued
// or running ("" otherwise); `states` gets squeue's count per state, `held`
// whether every remaining task is held (e.g. "launch failed requeued held":
// it will not run until someone releases or cancels it).
std::string slurm_active_job(const std::filesystem::path& out_dir, std::string* states = nullptr,
                             std::string* held = nullptr);
// Blocks until the job leaves the queue, printing progress from disk.
void slurm_wait(const Plan& plan, const PointStore& store, const std::string& job, const ExecOptions& exec,
                std::ostream& err);
// `simtlm sweep task`: runs array task `index` of a submission.
int slurm_task(const std::filesystem::path& out_dir, const std::string& tasks_file, size_t index,
               double point_timeout, std::ostream& err);

}  // namespace simtlm::cli::sweep
