// Pass options (see pass_options.h).
#include "frontend/passes/pass_options.h"

#include <cerrno>
#include <cstdlib>

#include "simtlm/error.h"

namespace simtlm::frontend {

namespace {

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\n");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t\n");
  return s.substr(b, e - b + 1);
}

}  // namespace

std::optional<std::string> PassParams::get(const std::string& key) const {
  auto it = values_.find(key);
  if (it == values_.end()) return std::nullopt;
  return it->second;
}

void PassParams::bad(const std::string& key, const std::string& what) const {
  throw Error(ErrorKind::Config, origin_ + ": pass '" + pass_ + "' option '" + key + "' = '" +
                                     values_.at(key) + "' is not " + what);
}

std::string PassParams::text(const std::string& key, const std::string& fallback) const {
  return get(key).value_or(fallback);
}

uint64_t PassParams::u64(const std::string& key, uint64_t fallback) const {
  const auto v = get(key);
  if (!v) return fallback;
  if (v->empty() || v->find_first_not_of("0123456789") != std::string::npos) bad(key, "an unsigned integer");
  errno = 0;
  const unsigned long long n = std::strtoull(v->c_str(), nullptr, 10);
  if (errno == ERANGE) bad(key, "an unsigned 64-bit integer");
  return n;
}

double PassParams::real(const std::string& key, double fallback) const {
  const auto v = get(key);
  if (!v) return fallback;
  char* end = nullptr;
  errno = 0;
  const double d = std::strtod(v->c_str(), &end);
  if (v->empty() || *end != '\0' || errno == ERANGE) bad(key, "a number");
  return d;
}

bool PassParams::flag(const std::string& key, bool fallback) const {
  const auto v = get(key);
  if (!v) return fallback;
  if (*v == "true") return true;
  if (*v == "false") return false;
  bad(key, "true or false");
}

void PassOptions::set(const std::string& pass, const std::string& key, const std::string& value) {
  auto it = passes_.find(pass);
  if (it == passes_.end()) it = passes_.emplace(pass, PassParams(pass, origin_)).first;
  it->second.set(key, value);
}

const PassParams& PassOptions::params(const std::string& pass) const {
  static const PassParams none;
  auto it = passes_.find(pass);
  return it == passes_.end() ? none : it->second;
}

PassOptions PassOptions::parse(const std::string& text, const std::string& origin) {
  PassOptions out(origin);
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string::npos) end = text.size();
    const std::string item = trim(text.substr(start, end - start));
    start = end + 1;
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const size_t dot = item.find('.');
    if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 || dot + 1 == eq) {
      throw Error(ErrorKind::Config,
                  origin + ": '" + item + "' is not of the form pass.key=value (items separated by ';')");
    }
    const std::string pass = trim(item.substr(0, dot));
    const std::string key = trim(item.substr(dot + 1, eq - dot - 1));
    if (out.params(pass).has(key))
      throw Error(ErrorKind::Config, origin + ": pass '" + pass + "' option '" + key + "' is given twice");
    out.set(pass, key, trim(item.substr(eq + 1)));
  }
  return out;
}

std::string PassOptions::canonical() const {
  std::string out;
  for (const auto& [pass, params] : passes_)
    for (const auto& [key, value] : params.values())
      out += (out.empty() ? "" : ";") + pass + "." + key + "=" + value;
  return out;
}

}  // namespace simtlm::frontend
