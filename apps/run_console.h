// What a simulating command (`run`, `ptx --launch`) shows while its kernels
// run, besides the report at the end:
//  - progress on stderr (launch index and kernel, cycles with the timing
//    backend, warp instructions, CTAs done/total, time elapsed in the launch
//    and, once a CTA has completed, an estimate of the time left in it). On a
//    terminal one line is rewritten in place; with --progress and stderr not
//    a terminal (batch schedulers, nohup, log files) a plain line is written
//    every --progress-every seconds. Progress only observes the device: the
//    results and statistics are the same with or without it.
//  - the kernels' printf output, after each launch (CUDA's order and timing,
//    functional/printf_buffer.h): on stdout, or on stderr with --stats (whose
//    stdout is the statistics JSON); with --out DIR also into DIR/printf.txt.
//    Calls dropped for lack of buffer space (sim.printf_buffer_bytes) are
//    reported with a warning on stderr.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "apps/cli_common.h"
#include "apps/sim_options.h"
#include "simtlm/device.h"

namespace simtlm::cli {

class RunConsole {
 public:
  RunConsole(Io& io, const SimOptions& options);
  ~RunConsole();
  RunConsole(const RunConsole&) = delete;
  RunConsole& operator=(const RunConsole&) = delete;

  // Installs the progress and printf callbacks (the console outlives the device).
  void attach(DeviceOptions& device);
  // After a completed run, before the report: warns about dropped printf
  // calls and writes printf.txt into --out DIR when a kernel printed.
  void finish(const std::vector<LaunchStats>& launches);

  // One progress line (without "simtlm: "), `launch_seconds` into the launch.
  static std::string progress_text(const LaunchProgress& p, double launch_seconds);

 private:
  enum class Mode { Off, Terminal, Lines };
  using Clock = std::chrono::steady_clock;

  void progress(const LaunchProgress& p);
  void printf_text(const std::string& text);
  void clear_line();

  Io& io_;
  Mode mode_ = Mode::Off;
  double every_seconds_ = 10;
  bool printf_to_stderr_ = false;
  std::string out_dir_;
  std::string printed_;         // printf text of every launch (for printf.txt)
  bool line_shown_ = false;     // a terminal progress line is on screen
  uint64_t launch_ = 0;         // launch the timers below belong to
  Clock::time_point launch_start_{};
  Clock::time_point last_shown_{};
};

}  // namespace simtlm::cli
