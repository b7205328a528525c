// The configuration schema: the fragments the module folders register
// (models/*/*_config_keys.cpp, see config_keys.h), merged in rank order into
// the one table that validation, `simtlm config describe` and
// docs/config-reference.md use.
#include <algorithm>
#include <string>
#include <unordered_set>
#include <vector>

#include "models/common/config_keys.h"
#include "simtlm/error.h"

namespace simtlm {
namespace {

std::vector<ConfigKey> build_schema() {
  std::vector<config_keys::Fragment> parts = config_keys::fragments();
  if (parts.empty()) {
    throw Error(ErrorKind::Internal,
                "no configuration keys registered: link simtlm_config_keys whole (models/CMakeLists.txt)");
  }
  std::stable_sort(parts.begin(), parts.end(),
                   [](const config_keys::Fragment& a, const config_keys::Fragment& b) { return a.rank < b.rank; });
  std::vector<ConfigKey> table;
  table.reserve(256);
  std::unordered_set<std::string> seen;
  for (std::size_t i = 0; i < parts.size(); ++i) {
    if (i > 0 && parts[i].rank == parts[i - 1].rank) {
      throw Error(ErrorKind::Internal, std::string("configuration fragments '") + parts[i - 1].name + "' and '" +
                                           parts[i].name + "' have the same rank " + std::to_string(parts[i].rank));
    }
    const std::size_t first = table.size();
    parts[i].add(table);
    for (std::size_t k = first; k < table.size(); ++k) {
      if (!seen.insert(table[k].path).second) {
        throw Error(ErrorKind::Internal, "configuration key '" + table[k].path + "' is declared twice (fragment '" +
                                             parts[i].name + "')");
      }
    }
  }
  return table;
}

}  // namespace

const std::vector<ConfigKey>& config_schema() {
  static const std::vector<ConfigKey> schema = build_schema();
  return schema;
}

}  // namespace simtlm
