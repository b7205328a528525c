#include "apps/sweep/sweep_points.h"

#include <elf.h>
#include <fcntl.h>
#include <link.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "apps/output_files.h"
#include "simtlm/error.h"

namespace simtlm::cli::sweep {

namespace fs = std::filesystem;

Json PointResult::to_json() const {
  Json j;
  j["hash"] = hash;
  j["status"] = ok ? "ok" : "failed";
  j["exit_code"] = exit_code;
  j["signal"] = signal;
  j["timed_out"] = timed_out;
  j["message"] = message;
  j["host_seconds"] = host_seconds;
  return j;
}

PointResult PointResult::from_json(const Json& j) {
  PointResult r;
  r.hash = j.at("hash").get<std::string>();
  r.ok = j.at("status").get<std::string>() == "ok";
  r.exit_code = j.at("exit_code").get<int>();
  r.signal = j.at("signal").get<int>();
  r.timed_out = j.at("timed_out").get<bool>();
  r.message = j.at("message").get<std::string>();
  r.host_seconds = j.at("host_seconds").get<double>();
  return r;
}

PointStore::PointStore(fs::path out_dir) : out_(std::move(out_dir)), points_(out_ / "points") {
  std::error_code ec;
  fs::create_directories(points_, ec);
  if (!fs::is_directory(points_))
    throw Error(ErrorKind::Input, "cannot create '" + points_.string() + "'" + (ec ? ": " + ec.message() : ""));
}

std::optional<PointResult> PointStore::result(const std::string& hash) const {
  std::ifstream in(dir(hash) / "result.json");
  if (!in) return std::nullopt;
  try {
    PointResult r = PointResult::from_json(Json::parse(in));
    if (r.hash != hash) return std::nullopt;
    return r;
  } catch (const nlohmann::json::exception&) {
    return std::nullopt;
  }
}

std::vector<size_t> PointStore::pending(const Plan& plan) const {
  std::vector<size_t> todo;
  for (size_t i = 0; i < plan.points.size(); ++i) {
    std::optional<PointResult> r = result(plan.points[i].hash);
    if (!r || !r->ok) todo.push_back(i);
  }
  return todo;
}

size_t PointStore::temporaries() const {
  size_t n = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(points_, ec))
    if (e.path().filename().string().rfind(".tmp-", 0) == 0) ++n;
  return n;
}

void PointStore::remove_temporaries() const {
  std::error_code ec;
  std::vector<fs::path> stale;
  for (const auto& e : fs::directory_iterator(points_, ec)) {
    const std::string name = e.path().filename().string();
    if (name.rfind(".tmp-", 0) == 0 || name.rfind(".old-", 0) == 0) stale.push_back(e.path());
  }
  for (const fs::path& p : stale) fs::remove_all(p, ec);
}

namespace {

std::string host_name() {
  char name[256] = {0};
  if (::gethostname(name, sizeof name - 1) != 0) return "host";
  return name;
}

// The last non-empty line of a file (an error message on stderr).
std::string last_line(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::string line, last;
  while (std::getline(in, line))
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  return last;
}

// The first line of a file that starts with `prefix` after blanks, trimmed.
std::string find_line(const fs::path& path, const std::string& prefix) {
  std::ifstream in(path, std::ios::binary);
  std::string line;
  while (std::getline(in, line)) {
    const size_t start = line.find_first_not_of(" \t");
    if (start != std::string::npos && line.compare(start, prefix.size(), prefix) == 0) return line.substr(start);
  }
  return "";
}

}  // namespace

fs::path PointStore::make_temp(const PlanPoint& point) const {
  const fs::path temp = points_ / (".tmp-" + point.hash + "-" + host_name() + "-" + std::to_string(::getpid()));
  std::error_code ec;
  fs::remove_all(temp, ec);
  if (!fs::create_directory(temp, ec))
    throw Error(ErrorKind::Input, "cannot create '" + temp.string() + "': " + ec.message());
  write_file_atomic(temp / "point.json", point.identity.dump(2) + "\n");
  write_file_atomic(temp / "input-config.json", point.config.dump(2) + "\n");
  return temp;
}

void PointStore::publish(const fs::path& temp, const PointResult& result) const {
  write_file_atomic(temp / "result.json", result.to_json().dump(2) + "\n");
  const fs::path final_dir = dir(result.hash);
  std::error_code ec;
  if (fs::exists(final_dir, ec)) {
    std::optional<PointResult> existing = this->result(result.hash);
    if (existing && existing->ok) {  // someone else finished it: keep theirs
      fs::remove_all(temp, ec);
      return;
    }
    // Replace a failed (or damaged) result: move it aside, then swap in ours.
    const fs::path old = points_ / (".old-" + temp.filename().string().substr(5));
    fs::remove_all(old, ec);
    fs::rename(final_dir, old, ec);
    if (ec) throw Error(ErrorKind::Input, "cannot replace '" + final_dir.string() + "': " + ec.message());
    fs::rename(temp, final_dir, ec);
    if (ec) throw Error(ErrorKind::Input, "cannot publish '" + final_dir.string() + "': " + ec.message());
    fs::remove_all(old, ec);
    return;
  }
  fs::rename(temp, final_dir, ec);
  if (ec) {
    // A concurrent runner published it between our check and the rename.
    if (fs::exists(final_dir)) {
      fs::remove_all(temp, ec);
      return;
    }
    throw Error(ErrorKind::Input, "cannot publish '" + final_dir.string() + "': " + ec.message());
  }
}

std::string self_executable() {
  std::error_code ec;
  fs::path p = fs::read_symlink("/proc/self/exe", ec);
  if (ec) throw Error(ErrorKind::Internal, "cannot find the simtlm executable (/proc/self/exe): " + ec.message());
  return p.string();
}

std::string build_id() {
  std::string id;
  dl_iterate_phdr(
      [](dl_phdr_info* info, size_t, void* data) {
        auto* out = static_cast<std::string*>(data);
        // The first object is the program itself.
        for (int i = 0; i < info->dlpi_phnum; ++i) {
          const ElfW(Phdr)& ph = info->dlpi_phdr[i];
          if (ph.p_type != PT_NOTE) continue;
          const auto* p = reinterpret_cast<const unsigned char*>(info->dlpi_addr + ph.p_vaddr);
          const unsigned char* end = p + ph.p_memsz;
          while (p + sizeof(ElfW(Nhdr)) <= end) {
            const auto* note = reinterpret_cast<const ElfW(Nhdr)*>(p);
            const unsigned char* name = p + sizeof(ElfW(Nhdr));
            const unsigned char* desc = name + ((note->n_namesz + 3) & ~3u);
            if (note->n_type == NT_GNU_BUILD_ID && note->n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0) {
              static const char* digits = "0123456789abcdef";
              for (unsigned k = 0; k < note->n_descsz; ++k) {
                *out += digits[desc[k] >> 4];
                *out += digits[desc[k] & 15];
              }
              return 1;
            }
            p = desc + ((note->n_descsz + 3) & ~3u);
          }
        }
        return 1;
      },
      &id);
  return id;
}

void check_same_build(const Plan& plan, const std::string& where) {
  const std::string mine = build_id();
  if (plan.build != mine)
    throw Error(ErrorKind::Usage, where + " was planned by another build of simtlm (build id " + plan.build +
                                      ", this one is " + mine +
                                      "); run the spec again to plan it for this build (its finished points of this "
                                      "build are kept)");
}

RunningPoint start_point(const PointStore& store, const std::string& exe, const PlanPoint& point, size_t index) {
  RunningPoint running;
  running.index = index;
  running.temp = store.make_temp(point);
  // Everything the child needs is prepared before fork().
  std::vector<std::string> args = {exe};
  args.insert(args.end(), point.args.begin(), point.args.end());
  args.insert(args.end(), {"--config", (running.temp / "input-config.json").string(), "--out", running.temp.string()});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string out_path = (running.temp / "stdout.txt").string();
  const std::string err_path = (running.temp / "stderr.txt").string();
  const pid_t parent = ::getpid();
  static const char kExecFailed[] = "simtlm sweep: cannot execute the simtlm program\n";

  running.start = std::chrono::steady_clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(ErrorKind::Internal, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    // The child: its own process group (a time limit kills all of it) and
    // SIGKILL when the sweep dies, so a killed sweep leaves no orphans.
    ::setpgid(0, 0);
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    ::signal(SIGCHLD, SIG_DFL);
    const int in = ::open("/dev/null", O_RDONLY);
    const int out = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    const int err = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (in < 0 || out < 0 || err < 0) ::_exit(127);
    ::dup2(in, 0);
    ::dup2(out, 1);
    ::dup2(err, 2);
    ::execv(argv[0], argv.data());
    if (::write(2, kExecFailed, sizeof kExecFailed - 1) < 0) ::_exit(127);
    ::_exit(127);
  }
  ::setpgid(pid, pid);  // also here: no window in which a kill misses the group
  running.pid = pid;
  return running;
}

void kill_point(RunningPoint& running) {
  running.timed_out = true;
  if (::kill(-running.pid, SIGKILL) != 0) ::kill(running.pid, SIGKILL);
}

PointResult finish_point(const PointStore& store, const PlanPoint& point, const RunningPoint& running,
                         int wait_status) {
  PointResult r;
  r.hash = point.hash;
  r.host_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - running.start).count();
  r.timed_out = running.timed_out;
  if (WIFEXITED(wait_status)) r.exit_code = WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) r.signal = WTERMSIG(wait_status);
  r.ok = r.exit_code == 0 && !r.timed_out && fs::exists(running.temp / "stats.json");
  if (r.timed_out) {
    std::ostringstream s;
    s << "exceeded the time limit of a point (" << r.host_seconds << " s)";
    r.message = s.str();
  } else if (r.signal != 0) {
    r.message = "killed by signal " + std::to_string(r.signal) + " (" + ::strsignal(r.signal) + ")";
  } else if (!r.ok) {
    // simtlm's one-line error report, else whatever the process said last.
    r.message = find_line(running.temp / "stderr.txt", "simtlm: ");
    if (r.message.empty()) r.message = last_line(running.temp / "stderr.txt");
    if (r.exit_code == 1) {
      const std::string line = find_line(running.temp / "stdout.txt", "result ");
      r.message = "result check failed" + (line.empty() ? "" : " (" + line + ")");
    }
    if (r.message.empty()) r.message = "exit code " + std::to_string(r.exit_code);
  }
  store.publish(running.temp, r);
  return r;
}

Captured capture(const std::vector<std::string>& command) {
  std::vector<std::string> args = command;
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  int fds[2];
  if (::pipe(fds) != 0) throw Error(ErrorKind::Internal, std::string("pipe failed: ") + std::strerror(errno));
  const pid_t pid = ::fork();
  if (pid < 0) throw Error(ErrorKind::Internal, std::string("fork failed: ") + std::strerror(errno));
  if (pid == 0) {
    ::dup2(fds[1], 1);
    ::dup2(fds[1], 2);
    ::close(fds[0]);
    ::close(fds[1]);
    ::execvp(argv[0], argv.data());
    ::_exit(127);
  }
  ::close(fds[1]);
  Captured c;
  char buf[4096];
  ssize_t n;
  while ((n = ::read(fds[0], buf, sizeof buf)) > 0 || (n < 0 && errno == EINTR))
    if (n > 0) c.output.append(buf, static_cast<size_t>(n));
  ::close(fds[0]);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  c.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
  if (c.exit_code == 127 && c.output.empty()) c.output = "'" + command[0] + "' not found in PATH";
  return c;
}

}  // namespace simtlm::cli::sweep
