#include "apps/ptxas_run.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <regex>
#include <sstream>
#include <vector>

namespace simtlm::cli {

namespace {

bool executable(const std::string& path) { return !path.empty() && access(path.c_str(), X_OK) == 0; }

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// ptxas does not know the SPU's instructions (docs/spu.md). As
// scripts/regen_ptx.sh does for the workloads' records, a PTX that uses them is
// assembled with GPU stand-ins (CB accesses as shared-memory ones,
// bar.blocksync as bar.sync 0, spu.sreg as a read of %smid); "" when the text
// has none.
std::string spu_stand_ins(const std::string& text) {
  if (text.find(".cb.") == std::string::npos && text.find("blocksync") == std::string::npos &&
      text.find("spu.sreg") == std::string::npos)
    return "";
  std::string out = std::regex_replace(text, std::regex(R"(\b(ld)\.cb\.(north|west)\.)"), "$1.shared.");
  out = std::regex_replace(out, std::regex(R"(\b(st)\.cb\.(south|east)\.)"), "$1.shared.");
  out = std::regex_replace(out, std::regex(R"(\bbar\.blocksync(\.(north|west|south|east))?;)"), "bar.sync 0;");
  out = std::regex_replace(out, std::regex(R"(\bspu\.sreg\.u32[ \t]+(%[a-z0-9_]+),[ \t]*[a-z]+;)"), "mov.u32 $1, %smid;");
  return out;
}

// A temporary copy of `file` with the SPU stand-ins, removed when it goes.
class StandInFile {
 public:
  explicit StandInFile(const std::string& file) {
    FILE* in = std::fopen(file.c_str(), "rb");
    if (!in) return;
    std::string text;
    char buf[65536];
    for (size_t n; (n = std::fread(buf, 1, sizeof buf, in)) > 0;) text.append(buf, n);
    std::fclose(in);
    const std::string replaced = spu_stand_ins(text);
    if (replaced.empty()) return;
    // In the system's temporary directory (TMPDIR honoured), not a fixed path.
    const std::string pattern = (std::filesystem::temp_directory_path() / "simtlm-ptxas-XXXXXX.ptx").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    char* name = buffer.data();
    const int fd = mkstemps(name, 4);
    if (fd < 0) return;
    const bool ok = write(fd, replaced.data(), replaced.size()) == static_cast<ssize_t>(replaced.size());
    close(fd);
    path_ = name;
    if (!ok) path_.clear(), unlink(name);
  }
  ~StandInFile() {
    if (!path_.empty()) unlink(path_.c_str());
  }
  StandInFile(const StandInFile&) = delete;
  StandInFile& operator=(const StandInFile&) = delete;
  const std::string& path() const { return path_; }  // "" when the original needs none

 private:
  std::string path_;
};

}  // namespace

std::string find_ptxas() {
  if (const char* env = std::getenv("SIMTLM_PTXAS")) return executable(env) ? env : "";
  if (const char* path = std::getenv("PATH")) {
    std::istringstream dirs(path);
    std::string dir;
    while (std::getline(dirs, dir, ':'))
      if (!dir.empty() && executable(dir + "/ptxas")) return dir + "/ptxas";
  }
  return executable("/usr/local/cuda/bin/ptxas") ? "/usr/local/cuda/bin/ptxas" : "";
}

std::map<std::string, uint32_t> parse_ptxas_registers(const std::string& log) {
  static const std::regex entry("Compiling entry function '([^']+)'");
  static const std::regex used("Used ([0-9]+) registers");
  std::map<std::string, uint32_t> out;
  std::istringstream lines(log);
  std::string line, kernel;
  std::smatch m;
  while (std::getline(lines, line)) {
    if (std::regex_search(line, m, entry)) {
      kernel = m[1];
    } else if (!kernel.empty() && std::regex_search(line, m, used)) {
      out[kernel] = static_cast<uint32_t>(std::stoul(m[1]));
      kernel.clear();
    }
  }
  return out;
}

PtxasCounts run_ptxas(const std::string& file, const std::string& target) {
  PtxasCounts r;
  std::smatch m;
  static const std::regex arch("sm_[0-9]+[a-z]?");
  if (!std::regex_search(target, m, arch)) {
    r.failure = "the module's .target '" + target + "' names no sm_NN architecture";
    return r;
  }
  r.arch = m[0];
  r.ptxas = find_ptxas();
  if (r.ptxas.empty()) {
    r.failure = "ptxas not found (PATH, /usr/local/cuda/bin, SIMTLM_PTXAS)";
    return r;
  }
  const StandInFile stand_in(file);
  const std::string& input = stand_in.path().empty() ? file : stand_in.path();
  const std::string command = shell_quote(r.ptxas) + " -arch=" + r.arch + " -v " + shell_quote(input) +
                              " -o /dev/null 2>&1";
  std::string log;
  FILE* p = popen(command.c_str(), "r");
  if (!p) {
    r.failure = "cannot run " + r.ptxas;
    return r;
  }
  char buf[4096];
  while (fgets(buf, sizeof buf, p)) log += buf;
  const int status = pclose(p);
  if (status != 0) {
    const std::string first = log.substr(0, log.find('\n'));
    r.failure = "ptxas -arch=" + r.arch + " failed: " + first;
    return r;
  }
  r.registers = parse_ptxas_registers(log);
  return r;
}

}  // namespace simtlm::cli
