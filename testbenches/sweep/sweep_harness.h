// Helpers of the `simtlm sweep` tests: the real simtlm binary in a scratch
// directory (CliTest), plus reading what a sweep leaves on disk.
#pragma once

#include <dirent.h>
#include <signal.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "testbenches/cli/cli_harness.h"

namespace simtlm::test {

// results.csv as rows of fields (no quoting needed for what the tests write).
inline std::vector<std::vector<std::string>> read_csv(const std::filesystem::path& path) {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(read_text(path));
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields;
    std::string f;
    std::istringstream ls(line);
    while (std::getline(ls, f, ',')) fields.push_back(f);
    if (!line.empty() && line.back() == ',') fields.emplace_back();
    rows.push_back(fields);
  }
  return rows;
}

// The value of column `name` in each data row.
inline std::vector<std::string> csv_column(const std::vector<std::vector<std::string>>& rows, const std::string& name) {
  std::vector<std::string> values;
  if (rows.empty()) return values;
  const auto it = std::find(rows[0].begin(), rows[0].end(), name);
  if (it == rows[0].end()) return values;
  const size_t col = static_cast<size_t>(it - rows[0].begin());
  for (size_t r = 1; r < rows.size(); ++r) values.push_back(col < rows[r].size() ? rows[r][col] : "");
  return values;
}

// Entries of DIR/points (finished points and temporaries).
inline std::vector<std::string> point_entries(const std::filesystem::path& out) {
  std::vector<std::string> names;
  std::error_code ec;
  for (const auto& e : std::filesystem::directory_iterator(out / "points", ec))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

// Pids of the live children of `parent` (from /proc/<pid>/stat).
inline std::vector<pid_t> children_of(pid_t parent) {
  std::vector<pid_t> kids;
  DIR* proc = ::opendir("/proc");
  if (!proc) return kids;
  while (dirent* e = ::readdir(proc)) {
    const std::string name = e->d_name;
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    const std::string stat = read_text("/proc/" + name + "/stat");
    const size_t close = stat.rfind(')');
    if (close == std::string::npos) continue;
    std::istringstream fields(stat.substr(close + 2));
    char state = 0;
    pid_t ppid = 0;
    fields >> state >> ppid;
    if (ppid == parent && state != 'Z') kids.push_back(static_cast<pid_t>(std::stol(name)));
  }
  ::closedir(proc);
  return kids;
}

class SweepTest : public CliTest {
 protected:
  // The one-line spec of `points` vectorAdd (small) points under the scheduler policies.
  std::string scheduler_spec(const std::string& name, const std::string& policies) const {
    return write(name + ".json",
                 "{\"name\": \"" + name + "\", \"size\": \"small\", \"workloads\": [\"vectorAdd\", \"scalarprod\"],\n"
                 " \"axes\": {\"gpu.sm.scheduler.policy\": [" + policies + "]},\n"
                 " \"baseline\": {\"gpu.sm.scheduler.policy\": \"gto\"},\n"
                 " \"metrics\": {\"cycles\": \"cycles\", \"ipc\": \"timing.total.gpu.ipc\"}}\n");
  }
  static nlohmann::json read_json(const std::filesystem::path& p) { return nlohmann::json::parse(read_text(p)); }
};

}  // namespace simtlm::test
