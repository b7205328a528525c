// Progress display and printf output of a simulating command (see run_console.h).
#include "apps/run_console.h"

#include <cstdio>
#include <ostream>

#include "apps/output_files.h"

namespace simtlm::cli {

namespace {

std::string seconds(double s) {
  char buf[32];
  if (s < 100) std::snprintf(buf, sizeof buf, "%.1f s", s);
  else std::snprintf(buf, sizeof buf, "%.0f s", s);
  return buf;
}

}  // namespace

RunConsole::RunConsole(Io& io, const SimOptions& options)
    : io_(io), every_seconds_(options.progress_every), printf_to_stderr_(options.stats), out_dir_(options.out_dir) {
  if (io.progress) mode_ = Mode::Terminal;
  else if (options.progress) mode_ = Mode::Lines;
}

RunConsole::~RunConsole() { clear_line(); }

void RunConsole::attach(DeviceOptions& device) {
  if (mode_ != Mode::Off) device.progress = [this](const LaunchProgress& p) { progress(p); };
  device.printf_output = [this](const std::string& text) { printf_text(text); };
}

std::string RunConsole::progress_text(const LaunchProgress& p, double launch_seconds) {
  std::string s = "launch " + std::to_string(p.launch) + " (" + p.kernel + "): ";
  if (p.timed) s += std::to_string(p.cycles) + " cycles, ";
  s += std::to_string(p.warp_instructions) + " warp instructions, CTAs " + std::to_string(p.ctas_done) + "/" +
       std::to_string(p.ctas_total) + ", " + seconds(launch_seconds);
  if (p.ctas_done >= p.ctas_total) return s + " (done)";
  if (!p.hint.empty()) return s + "; " + p.hint;  // an ETA would be meaningless
  if (p.ctas_done == 0) return s;  // no rate to extrapolate yet
  const double left = launch_seconds * static_cast<double>(p.ctas_total - p.ctas_done) / static_cast<double>(p.ctas_done);
  return s + ", ETA " + seconds(left);
}

void RunConsole::progress(const LaunchProgress& p) {
  const Clock::time_point now = Clock::now();
  if (p.launch != launch_) {
    launch_ = p.launch;
    launch_start_ = now;
  }
  const double since_shown = std::chrono::duration<double>(now - last_shown_).count();
  const double in_launch = std::chrono::duration<double>(now - launch_start_).count();
  if (mode_ == Mode::Terminal) {
    if (since_shown < 0.1) return;
    io_.err << "\r\x1b[Ksimtlm: " << progress_text(p, in_launch) << std::flush;
    line_shown_ = true;
  } else {
    if (since_shown < every_seconds_) return;
    io_.err << "simtlm: " << progress_text(p, in_launch) << std::endl;
  }
  last_shown_ = now;
}

void RunConsole::clear_line() {
  if (!line_shown_) return;
  io_.err << "\r\x1b[K" << std::flush;
  line_shown_ = false;
}

void RunConsole::printf_text(const std::string& text) {
  // On a terminal stderr may hold a progress line (ours or the command's
  // "running ..." line): printf text starts on a clean line.
  if (mode_ == Mode::Terminal) line_shown_ = true;
  clear_line();
  std::ostream& os = printf_to_stderr_ ? io_.err : io_.out;
  os << text << std::flush;
  if (!out_dir_.empty()) printed_ += text;
}

void RunConsole::finish(const std::vector<LaunchStats>& launches) {
  clear_line();
  for (size_t i = 0; i < launches.size(); ++i) {
    const LaunchStats& s = launches[i];
    if (s.printf_dropped == 0) continue;
    io_.err << "simtlm: warning: launch " << i + 1 << " (" << s.kernel << "): " << s.printf_dropped << " of "
            << s.printf_calls
            << " printf calls did not fit in sim.printf_buffer_bytes and were dropped (the last ones in the "
               "output order: CTA, thread, program order)\n";
  }
  if (!out_dir_.empty() && !printed_.empty()) OutputDir(out_dir_).write("printf.txt", printed_);
}

}  // namespace simtlm::cli
