// Helpers shared by the configuration sources (not part of the public API).
#pragma once

#include <cstddef>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "simtlm/config.h"

namespace simtlm {
namespace config_detail {

const std::unordered_map<std::string, std::size_t>& schema_index();
bool is_group(const std::string& prefix);
std::string join(const std::vector<std::string>& items, const std::string& sep);
std::string range_text(const ConfigKey& key);
std::string nearest(const std::string& word, const std::vector<std::string>& candidates);
std::size_t edit_distance(const std::string& a, const std::string& b);
[[noreturn]] void fail(const std::string& where, const std::string& message);
// configs/<name>.json as (name, text), sorted by name; generated at build time
// by cmake/EmbedConfigs.cmake (embedded_presets.cpp).
const std::vector<std::pair<std::string, std::string>>& embedded_presets();

}  // namespace config_detail
}  // namespace simtlm
