// The local executor: keeps `jobs` point processes busy. The loop sleeps in
// sigtimedwait() on SIGCHLD (blocked, so none is lost between checks) and
// wakes for the next time limit or progress line.
#include <signal.h>
#include <sys/wait.h>

#include <cmath>
#include <cstdio>
#include <map>
#include <ostream>

#include "apps/sweep/sweep_exec.h"

namespace simtlm::cli::sweep {

namespace {

using Clock = std::chrono::steady_clock;

std::string clock_text(double seconds) {
  const long s = std::lround(seconds);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

// Blocks SIGCHLD for the executor's lifetime and restores the caller's mask
// and handler afterwards (the CLI also runs in-process in tests).
class ChildSignals {
 public:
  ChildSignals() {
    struct sigaction act {};
    act.sa_handler = [](int) {};  // not SIG_IGN: that would reap children for us
    sigemptyset(&act.sa_mask);
    ::sigaction(SIGCHLD, &act, &old_action_);
    sigemptyset(&set_);
    sigaddset(&set_, SIGCHLD);
    ::sigprocmask(SIG_BLOCK, &set_, &old_mask_);
  }
  ~ChildSignals() {
    ::sigprocmask(SIG_SETMASK, &old_mask_, nullptr);
    ::sigaction(SIGCHLD, &old_action_, nullptr);
  }
  ChildSignals(const ChildSignals&) = delete;
  ChildSignals& operator=(const ChildSignals&) = delete;
  // Sleeps until a child changes state or `seconds` pass.
  void wait(double seconds) const {
    if (seconds <= 0) return;
    timespec t;
    t.tv_sec = static_cast<time_t>(seconds);
    t.tv_nsec = static_cast<long>((seconds - static_cast<double>(t.tv_sec)) * 1e9);
    ::sigtimedwait(&set_, nullptr, &t);
  }

 private:
  sigset_t set_, old_mask_;
  struct sigaction old_action_ {};
};

}  // namespace

std::string progress_text(size_t done, size_t total, size_t running, size_t failed, double elapsed, double eta) {
  std::string s = "sweep: " + std::to_string(done) + "/" + std::to_string(total) + " done, " +
                  std::to_string(running) + " running, " + std::to_string(failed) + " failed, " +
                  clock_text(elapsed) + " elapsed";
  if (eta >= 0) s += ", ETA " + clock_text(eta);
  return s;
}

ExecSummary run_points(const Plan& plan, const PointStore& store, const std::vector<size_t>& todo,
                       const ExecOptions& options, std::ostream& err, size_t done_before) {
  ExecSummary summary;
  const Clock::time_point start = Clock::now();
  const unsigned jobs = options.jobs == 0 ? 1 : options.jobs;
  const size_t total = plan.points.size();
  std::map<pid_t, RunningPoint> running;
  size_t next = 0;
  Clock::time_point last_report = start;
  bool line_shown = false;

  auto report = [&](bool force) {
    const Clock::time_point now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start).count();
    const size_t finished = summary.ran;
    const double eta =
        finished == 0 ? -1 : elapsed / static_cast<double>(finished) * static_cast<double>(todo.size() - finished);
    const std::string text = progress_text(done_before + summary.ok, total, running.size(), summary.failed, elapsed, eta);
    if (options.tty) {
      err << "\r\033[K" << text << std::flush;
      line_shown = true;
    } else if (force || std::chrono::duration<double>(now - last_report).count() >= options.report_every) {
      err << text << "\n" << std::flush;
      last_report = now;
    }
  };

  ChildSignals signals;
  while (next < todo.size() || !running.empty()) {
    while (running.size() < jobs && next < todo.size()) {
      const size_t index = todo[next++];
      RunningPoint r = start_point(store, options.exe, plan.points[index], index);
      running.emplace(r.pid, std::move(r));
    }
    report(false);
    // Sleep until a child ends, the nearest time limit, or the next progress line.
    double sleep = options.tty ? 0.5 : options.report_every;
    if (options.point_timeout > 0) {
      for (const auto& [pid, r] : running) {
        const double left = options.point_timeout - std::chrono::duration<double>(Clock::now() - r.start).count();
        if (!r.timed_out) sleep = std::min(sleep, std::max(left, 0.0) + 0.001);
      }
    }
    signals.wait(sleep);

    int status = 0;
    pid_t pid;
    while ((pid = ::waitpid(-1, &status, WNOHANG)) > 0) {
      auto it = running.find(pid);
      if (it == running.end()) continue;  // not ours
      PointResult result = finish_point(store, plan.points[it->second.index], it->second, status);
      running.erase(it);
      ++summary.ran;
      (result.ok ? summary.ok : summary.failed)++;
    }
    if (options.point_timeout > 0) {
      for (auto& [p, r] : running)
        if (!r.timed_out && std::chrono::duration<double>(Clock::now() - r.start).count() >= options.point_timeout)
          kill_point(r);
    }
  }
  if (line_shown) err << "\r\033[K" << std::flush;
  else if (!todo.empty() && std::chrono::duration<double>(Clock::now() - start).count() >= options.report_every)
    report(true);
  summary.wall_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  return summary;
}

}  // namespace simtlm::cli::sweep
