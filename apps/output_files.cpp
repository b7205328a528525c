#include "apps/output_files.h"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#include "simtlm/error.h"

namespace simtlm::cli {

namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, const void* data, size_t size) {
  fs::path temp = path;
  temp += ".tmp-" + std::to_string(::getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (!f)
    throw Error(ErrorKind::Input,
                "cannot write '" + path.string() + "': " + std::strerror(errno));
  bool ok = size == 0 || std::fwrite(data, 1, size, f) == size;
  int saved = errno;
  ok = (std::fclose(f) == 0) && ok;
  if (ok && std::rename(temp.c_str(), path.c_str()) == 0) return;
  saved = errno ? errno : saved;
  std::remove(temp.c_str());
  throw Error(ErrorKind::Input, "cannot write '" + path.string() + "': " + std::strerror(saved));
}

void write_file_atomic(const fs::path& path, const std::string& text) {
  write_file_atomic(path, text.data(), text.size());
}

OutputDir::OutputDir(const std::string& path) : path_(path) {
  if (path.empty()) throw Error(ErrorKind::Usage, "--out needs a directory name");
  std::error_code ec;
  fs::create_directories(path_, ec);
  if (!fs::is_directory(path_))
    throw Error(ErrorKind::Input, "cannot create output directory '" + path + "'" +
                                      (ec ? ": " + ec.message() : std::string()));
}

void OutputDir::write(const std::string& name, const std::string& text) const {
  write_file_atomic(path_ / name, text);
}

const std::vector<std::string> OutputDir::kResultFiles = {
    "stats.json", "config.json", "summary.txt", "options.json",  // every run
    "trace.vcd",  "timeline.json", "power.csv",                  // --trace
    "printf.txt",                                                 // kernels that print
};

void OutputDir::clear_results(const std::vector<std::string>& outputs) const {
  auto remove = [this](const std::string& name) {
    std::error_code ec;
    const fs::path p = path_ / name;
    if (!fs::is_regular_file(p, ec)) return;
    if (!fs::remove(p, ec) && ec) {
      throw Error(ErrorKind::Input, "cannot remove the earlier result '" + p.string() + "': " + ec.message());
    }
  };
  for (const std::string& name : kResultFiles) remove(name);
  for (const std::string& name : outputs) remove(name);
}

}  // namespace simtlm::cli
