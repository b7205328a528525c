// Statistics registry: registration, names and patterns, capture and windows.
// Formulas: stats_formula.cpp. Dumps and the kernel recorder: stats_report.cpp.
#include "simtlm/stats.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <type_traits>

#include "models/common/stats_detail.h"

namespace simtlm::stats {

namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// One segment: identifier followed by zero or more [digits] groups.
bool valid_segment(const std::string& s) {
  if (s.empty() || !ident_start(s[0])) return false;
  std::size_t i = 1;
  while (i < s.size() && ident_char(s[i])) ++i;
  while (i < s.size()) {
    if (s[i] != '[') return false;
    const std::size_t close = s.find(']', i);
    if (close == std::string::npos || close == i + 1) return false;
    for (std::size_t k = i + 1; k < close; ++k) {
      if (!std::isdigit(static_cast<unsigned char>(s[k]))) return false;
    }
    i = close + 1;
  }
  return true;
}

std::vector<std::string> split_dots(const std::string& s) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  for (;;) {
    const std::size_t dot = s.find('.', start);
    parts.push_back(s.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
    if (dot == std::string::npos) return parts;
    start = dot + 1;
  }
}

// Segment [pb, pe) of the pattern against segment [nb, ne) of the name,
// without copying either (this runs for every name x pattern pair).
bool segment_matches(const std::string& p, std::size_t pb, std::size_t pe, const std::string& n, std::size_t nb,
                     std::size_t ne) {
  if (pe - pb == 1 && p[pb] == '*') return true;
  std::size_t i = pb, j = nb;
  while (i < pe && j < ne) {
    if (pe - i >= 3 && p.compare(i, 3, "[*]") == 0 && n[j] == '[') {
      const std::size_t close = n.find(']', j);
      if (close == std::string::npos || close >= ne) return false;
      i += 3;
      j = close + 1;
      continue;
    }
    if (p[i] != n[j]) return false;
    ++i;
    ++j;
  }
  return i == pe && j == ne;
}

// Whether every '*' of a pattern is an index wildcard "[*]" (none stands for a
// whole segment).
bool only_index_wildcards(const std::string& pattern) {
  for (std::size_t k = pattern.find('*'); k != std::string::npos; k = pattern.find('*', k + 1)) {
    if (k == 0 || pattern[k - 1] != '[' || k + 1 == pattern.size() || pattern[k + 1] != ']') return false;
  }
  return true;
}

}  // namespace

namespace detail {

bool valid_name(const std::string& name) {
  for (const std::string& seg : split_dots(name)) {
    if (!valid_segment(seg)) return false;
  }
  return true;
}

std::string collapse_indices(const std::string& name) {
  std::string out;
  std::size_t i = 0;
  while (i < name.size()) {
    if (name[i] == '[') {
      const std::size_t close = name.find(']', i);
      out += "[*]";
      i = close == std::string::npos ? name.size() : close + 1;
    } else {
      out += name[i++];
    }
  }
  return out;
}

}  // namespace detail

bool name_matches(const std::string& pattern, const std::string& name) {
  std::size_t pb = 0, nb = 0;
  for (;;) {
    const std::size_t pd = pattern.find('.', pb), nd = name.find('.', nb);
    const std::size_t pe = pd == std::string::npos ? pattern.size() : pd;
    const std::size_t ne = nd == std::string::npos ? name.size() : nd;
    if (!segment_matches(pattern, pb, pe, name, nb, ne)) return false;
    const bool plast = pd == std::string::npos, nlast = nd == std::string::npos;
    if (plast || nlast) return plast && nlast;  // same number of segments
    pb = pd + 1;
    nb = nd + 1;
  }
}

bool natural_less(const std::string& a, const std::string& b) {
  std::size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    const bool da = std::isdigit(static_cast<unsigned char>(a[i])) != 0;
    const bool db = std::isdigit(static_cast<unsigned char>(b[j])) != 0;
    if (da && db) {
      std::size_t ei = i, ej = j;
      while (ei < a.size() && std::isdigit(static_cast<unsigned char>(a[ei]))) ++ei;
      while (ej < b.size() && std::isdigit(static_cast<unsigned char>(b[ej]))) ++ej;
      // Compare the numbers without leading zeros: longer is larger, then digit by digit.
      std::size_t si = i, sj = j;
      while (si + 1 < ei && a[si] == '0') ++si;
      while (sj + 1 < ej && b[sj] == '0') ++sj;
      if (ei - si != ej - sj) return ei - si < ej - sj;
      const int c = a.compare(si, ei - si, b, sj, ej - sj);
      if (c != 0) return c < 0;
      if (ei - i != ej - j) return ei - i < ej - j;  // fewer leading zeros first
      i = ei;
      j = ej;
      continue;
    }
    if (a[i] != b[j]) return static_cast<unsigned char>(a[i]) < static_cast<unsigned char>(b[j]);
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

Registry::Registry() = default;
Registry::~Registry() = default;

std::size_t Registry::add(Info info, const void* source) {
  if (!detail::valid_name(info.name)) {
    throw Error(ErrorKind::Internal, "statistic name '" + info.name +
                                         "' is malformed (segments [A-Za-z_][A-Za-z0-9_]* with optional [index], "
                                         "joined by '.')");
  }
  if (ids_.count(info.name)) {
    throw Error(ErrorKind::Internal, "statistic '" + info.name + "' is registered twice");
  }
  if (info.shape != Shape::Formula && source == nullptr) {
    throw Error(ErrorKind::Internal, "statistic '" + info.name + "' registered with a null pointer");
  }
  const std::size_t id = infos_.size();
  ids_.emplace(info.name, id);
  infos_.push_back(std::move(info));
  sources_.push_back(source);
  formulas_.emplace_back();
  sorted_cache_.clear();
  shape_cache_.clear();
  match_cache_.clear();
  integral_cache_.clear();
  return id;
}

void Registry::counter(const std::string& name, const std::uint64_t* value, const std::string& unit,
                       const std::string& description) {
  add(Info{name, unit, description, Kind::Counter, Shape::U64, {}}, value);
}

void Registry::level(const std::string& name, const std::uint64_t* value, const std::string& unit,
                     const std::string& description) {
  add(Info{name, unit, description, Kind::Level, Shape::U64, {}}, value);
}

void Registry::scalar(const std::string& name, const double* value, const std::string& unit,
                      const std::string& description, Kind kind) {
  if (kind == Kind::Formula) throw Error(ErrorKind::Internal, "statistic '" + name + "': use formula()");
  add(Info{name, unit, description, kind, Shape::F64, {}}, value);
}

void Registry::vector(const std::string& name, const std::vector<std::uint64_t>* values, const std::string& unit,
                      const std::string& description, Kind kind) {
  if (kind == Kind::Formula) throw Error(ErrorKind::Internal, "statistic '" + name + "': use formula()");
  add(Info{name, unit, description, kind, Shape::VecU64, {}}, values);
}

void Registry::vector(const std::string& name, const std::vector<double>* values, const std::string& unit,
                      const std::string& description, Kind kind) {
  if (kind == Kind::Formula) throw Error(ErrorKind::Internal, "statistic '" + name + "': use formula()");
  add(Info{name, unit, description, kind, Shape::VecF64, {}}, values);
}

std::uint64_t& Registry::make_counter(const std::string& name, const std::string& unit,
                                      const std::string& description) {
  auto storage = std::make_unique<std::uint64_t>(0);
  std::uint64_t& ref = *storage;
  counter(name, &ref, unit, description);
  owned_.push_back(std::move(storage));
  return ref;
}

void Registry::formula(const std::string& name, const std::string& expression, const std::string& unit,
                       const std::string& description) {
  std::shared_ptr<const Expr> parsed = detail::parse_formula(expression, name);
  const std::size_t id = add(Info{name, unit, description, Kind::Formula, Shape::Formula, expression}, nullptr);
  formulas_[id] = std::move(parsed);
}

bool Registry::contains(const std::string& name) const { return ids_.count(name) != 0; }

std::size_t Registry::id_of(const std::string& name) const {
  const auto it = ids_.find(name);
  if (it == ids_.end()) throw Error(ErrorKind::Internal, "unknown statistic '" + name + "'");
  return it->second;
}

const Info& Registry::info(const std::string& name) const { return infos_[id_of(name)]; }

const std::vector<std::size_t>& Registry::sorted_ids() const {
  if (sorted_cache_.size() != infos_.size()) {
    std::vector<std::size_t> ids(infos_.size());
    for (std::size_t i = 0; i < ids.size(); ++i) ids[i] = i;
    std::sort(ids.begin(), ids.end(),
              [this](std::size_t a, std::size_t b) { return natural_less(infos_[a].name, infos_[b].name); });
    sorted_cache_ = std::move(ids);
  }
  return sorted_cache_;
}

std::vector<std::string> Registry::names() const {
  std::vector<std::string> out;
  for (std::size_t id : sorted_ids()) out.push_back(infos_[id].name);
  return out;
}

const std::unordered_map<std::string, std::vector<std::size_t>>& Registry::shape_ids() const {
  if (shape_cache_.empty() && !infos_.empty()) {
    // Filled in natural order, so each shape's ids are already in the order match() returns.
    for (std::size_t id : sorted_ids()) shape_cache_[detail::collapse_indices(infos_[id].name)].push_back(id);
  }
  return shape_cache_;
}

// A name matches a pattern without whole-segment '*' only if both have the
// same shape (collapse_indices): "[*]" stands for one index group, literal
// indices collapse like the name's, and every other character is compared
// literally. So such a pattern tests only the names of its shape (a handful,
// e.g. one per SM) instead of every registered name; the result is the same
// ids in the same natural order. Patterns with a "*" segment scan every name.
const std::vector<std::size_t>& Registry::match_ids(const std::string& pattern) const {
  const auto hit = match_cache_.find(pattern);
  if (hit != match_cache_.end()) return hit->second;
  std::vector<std::size_t> out;
  if (only_index_wildcards(pattern)) {
    const auto& shapes = shape_ids();
    const auto same_shape = shapes.find(detail::collapse_indices(pattern));
    if (same_shape != shapes.end()) {
      for (std::size_t id : same_shape->second) {
        if (name_matches(pattern, infos_[id].name)) out.push_back(id);
      }
    }
  } else {
    for (std::size_t id : sorted_ids()) {
      if (name_matches(pattern, infos_[id].name)) out.push_back(id);
    }
  }
  // unordered_map keeps references to its elements valid across later
  // insertions (eval recurses into other patterns while iterating this one).
  return match_cache_.emplace(pattern, std::move(out)).first->second;
}

std::vector<std::string> Registry::match(const std::string& pattern) const {
  std::vector<std::string> out;
  for (std::size_t id : match_ids(pattern)) out.push_back(infos_[id].name);
  return out;
}

Values Registry::capture() const {
  Values v;
  v.samples_.reserve(infos_.size());
  for (std::size_t id = 0; id < infos_.size(); ++id) {
    switch (infos_[id].shape) {
      case Shape::U64: v.samples_.emplace_back(*static_cast<const std::uint64_t*>(sources_[id])); break;
      case Shape::F64: v.samples_.emplace_back(*static_cast<const double*>(sources_[id])); break;
      case Shape::VecU64:
        v.samples_.emplace_back(*static_cast<const std::vector<std::uint64_t>*>(sources_[id]));
        break;
      case Shape::VecF64: v.samples_.emplace_back(*static_cast<const std::vector<double>*>(sources_[id])); break;
      case Shape::Formula: v.samples_.emplace_back(std::monostate{}); break;
    }
  }
  return v;
}

namespace {

template <typename T>
T diff_scalar(T now, T before) {
  if constexpr (std::is_same_v<T, std::uint64_t>) {
    return now >= before ? now - before : now;  // a counter that went back was reset: count from zero
  } else {
    return now - before;
  }
}

template <typename T>
std::vector<T> diff_vector(const std::vector<T>& now, const Sample& before) {
  std::vector<T> out = now;
  if (const auto* b = std::get_if<std::vector<T>>(&before)) {
    for (std::size_t i = 0; i < out.size() && i < b->size(); ++i) out[i] = diff_scalar(now[i], (*b)[i]);
  }
  return out;
}

}  // namespace

Values Registry::since(const Values& start) const {
  Values now = capture();
  for (std::size_t id = 0; id < now.samples_.size(); ++id) {
    if (infos_[id].kind != Kind::Counter || id >= start.samples_.size()) continue;
    const Sample& before = start.samples_[id];
    Sample& s = now.samples_[id];
    if (auto* u = std::get_if<std::uint64_t>(&s)) {
      if (const auto* b = std::get_if<std::uint64_t>(&before)) *u = diff_scalar(*u, *b);
    } else if (auto* d = std::get_if<double>(&s)) {
      if (const auto* b = std::get_if<double>(&before)) *d = diff_scalar(*d, *b);
    } else if (auto* vu = std::get_if<std::vector<std::uint64_t>>(&s)) {
      *vu = diff_vector(*vu, before);
    } else if (auto* vd = std::get_if<std::vector<double>>(&s)) {
      *vd = diff_vector(*vd, before);
    }
  }
  return now;
}

double Registry::scalar_value(std::size_t id, const Values& v, std::vector<std::size_t>& stack) const {
  const Info& info = infos_[id];
  if (info.shape == Shape::Formula) return formula_value(id, v, stack);
  if (info.shape == Shape::VecU64 || info.shape == Shape::VecF64) {
    throw Error(ErrorKind::Internal, "statistic '" + info.name + "' is a vector; use sum(" + info.name + ")");
  }
  if (id >= v.samples_.size()) return 0.0;  // registered after the values were captured
  const Sample& s = v.samples_[id];
  if (const auto* u = std::get_if<std::uint64_t>(&s)) return static_cast<double>(*u);
  if (const auto* d = std::get_if<double>(&s)) return *d;
  return 0.0;
}

double Registry::formula_value(std::size_t id, const Values& v, std::vector<std::size_t>& stack) const {
  if (std::find(stack.begin(), stack.end(), id) != stack.end()) {
    std::string chain;
    for (std::size_t s : stack) chain += infos_[s].name + " -> ";
    throw Error(ErrorKind::Internal, "statistics formulas form a cycle: " + chain + infos_[id].name);
  }
  stack.push_back(id);
  const double x = eval(*formulas_[id], v, stack);
  stack.pop_back();
  return x;
}

double Registry::value(const std::string& name, const Values& values) const {
  std::vector<std::size_t> stack;
  return scalar_value(id_of(name), values, stack);
}

double Registry::sum(const std::string& pattern, const Values& values) const {
  return evaluate("sum(" + pattern + ")", values);
}

double Registry::evaluate(const std::string& expression, const Values& values) const {
  const std::shared_ptr<const Expr> e = detail::parse_formula(expression, "<expression>");
  std::vector<std::size_t> stack;
  return eval(*e, values, stack);
}

std::vector<double> Registry::vector_sum(const std::string& pattern, const Values& values) const {
  std::vector<double> out;
  auto add = [&out](const auto& xs) {
    if (out.size() < xs.size()) out.resize(xs.size(), 0.0);
    for (std::size_t i = 0; i < xs.size(); ++i) out[i] += static_cast<double>(xs[i]);
  };
  for (std::size_t id : match_ids(pattern)) {
    if (id >= values.samples_.size()) continue;
    const Sample& s = values.samples_[id];
    if (const auto* vu = std::get_if<std::vector<std::uint64_t>>(&s)) add(*vu);
    if (const auto* vd = std::get_if<std::vector<double>>(&s)) add(*vd);
  }
  return out;
}

namespace {

template <typename T>
void combine(T& into, T more, bool level) {
  into = level ? std::max(into, more) : into + more;
}

template <typename T>
void combine_vector(std::vector<T>& into, const std::vector<T>& more, bool level) {
  if (into.size() < more.size()) into.resize(more.size(), T{});
  for (std::size_t i = 0; i < more.size(); ++i) combine(into[i], more[i], level);
}

}  // namespace

void Registry::accumulate(Values& into, const Values& more) const {
  if (into.samples_.empty()) {
    into = more;
    return;
  }
  if (into.samples_.size() < more.samples_.size()) into.samples_.resize(more.samples_.size());
  for (std::size_t id = 0; id < more.samples_.size(); ++id) {
    const bool level = infos_[id].kind == Kind::Level;
    Sample& s = into.samples_[id];
    const Sample& m = more.samples_[id];
    if (std::holds_alternative<std::monostate>(s)) {
      s = m;
    } else if (auto* u = std::get_if<std::uint64_t>(&s)) {
      if (const auto* b = std::get_if<std::uint64_t>(&m)) combine(*u, *b, level);
    } else if (auto* d = std::get_if<double>(&s)) {
      if (const auto* b = std::get_if<double>(&m)) combine(*d, *b, level);
    } else if (auto* vu = std::get_if<std::vector<std::uint64_t>>(&s)) {
      if (const auto* b = std::get_if<std::vector<std::uint64_t>>(&m)) combine_vector(*vu, *b, level);
    } else if (auto* vd = std::get_if<std::vector<double>>(&s)) {
      if (const auto* b = std::get_if<std::vector<double>>(&m)) combine_vector(*vd, *b, level);
    }
  }
}

// ---------------------------------------------------------------- Group

Group::Group(Registry& registry, std::string prefix) : registry_(&registry), prefix_(std::move(prefix)) {}

std::string Group::path(const std::string& name) const { return prefix_.empty() ? name : prefix_ + "." + name; }

Group Group::child(const std::string& name) const { return Group(*registry_, path(name)); }

Group Group::child(const std::string& name, std::size_t index) const {
  return Group(*registry_, path(name) + "[" + std::to_string(index) + "]");
}

void Group::counter(const std::string& name, const std::uint64_t* value, const std::string& unit,
                    const std::string& description) const {
  registry_->counter(path(name), value, unit, description);
}

void Group::level(const std::string& name, const std::uint64_t* value, const std::string& unit,
                  const std::string& description) const {
  registry_->level(path(name), value, unit, description);
}

void Group::scalar(const std::string& name, const double* value, const std::string& unit,
                   const std::string& description, Kind kind) const {
  registry_->scalar(path(name), value, unit, description, kind);
}

void Group::vector(const std::string& name, const std::vector<std::uint64_t>* values, const std::string& unit,
                   const std::string& description, Kind kind) const {
  registry_->vector(path(name), values, unit, description, kind);
}

std::uint64_t& Group::make_counter(const std::string& name, const std::string& unit,
                                   const std::string& description) const {
  return registry_->make_counter(path(name), unit, description);
}

void Group::formula(const std::string& name, const std::string& expression, const std::string& unit,
                    const std::string& description) const {
  std::string expanded;
  const std::string with_dot = prefix_.empty() ? std::string() : prefix_ + ".";
  for (char c : expression) {
    if (c == '@') {
      expanded += with_dot;
    } else {
      expanded += c;
    }
  }
  registry_->formula(path(name), expanded, unit, description);
}

}  // namespace simtlm::stats
