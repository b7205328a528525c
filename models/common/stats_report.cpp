// Dumps of the statistics tree (JSON, text summary, description) and the
// per-kernel recorder.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <sstream>

#include <nlohmann/json.hpp>

#include "models/common/stats_detail.h"
#include "simtlm/stats.h"

namespace simtlm::stats {

using nlohmann::ordered_json;

namespace detail {

std::string format_number(double x) {
  if (std::isnan(x)) return "n/a";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  if (x == std::floor(x) && std::fabs(x) < 1e15) {
    std::snprintf(buf, sizeof buf, "%.0f", x);
  } else {
    std::snprintf(buf, sizeof buf, "%.6g", x);
  }
  return buf;
}

}  // namespace detail

namespace {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::Counter: return "counter";
    case Kind::Level: return "level";
    case Kind::Formula: return "formula";
  }
  return "?";
}

ordered_json number_json(double x) { return std::isfinite(x) ? ordered_json(x) : ordered_json(nullptr); }

// Appends a member whose key the caller knows to be new. ordered_json's own
// insertion searches the members linearly for the key first, which made a
// dump of the ~2,000-statistic tree quadratic (a visible share of a short
// simulation's host time).
using Members = std::vector<std::pair<const std::string, ordered_json>>;
Members& members_of(ordered_json& object) {
  return static_cast<Members&>(object.get_ref<ordered_json::object_t&>());
}
void append_member(ordered_json& object, const std::string& key, ordered_json value) {
  members_of(object).emplace_back(key, std::move(value));
}
// An object about to receive n members (the pairs have a const key, so a
// reallocation would copy every value already in it).
ordered_json object_for(std::size_t n) {
  ordered_json object = ordered_json::object();
  members_of(object).reserve(n);
  return object;
}

}  // namespace

ordered_json Registry::meta_json() const {
  ordered_json meta = object_for(infos_.size());
  for (std::size_t id : sorted_ids()) {
    const Info& info = infos_[id];
    ordered_json m = ordered_json::object();
    m["unit"] = info.unit;
    m["description"] = info.description;
    m["kind"] = kind_name(info.kind);
    if (info.kind == Kind::Formula) m["formula"] = info.expression;
    append_member(meta, info.name, std::move(m));
  }
  return meta;
}

ordered_json Registry::to_json(const Values& values, bool with_meta) const {
  ordered_json out = object_for(infos_.size());
  for (std::size_t id : sorted_ids()) {
    const Info& info = infos_[id];
    const Sample empty;
    const Sample& s = id < values.size() ? values.at(id) : empty;
    switch (info.shape) {
      case Shape::U64: {
        const auto* u = std::get_if<std::uint64_t>(&s);
        append_member(out, info.name, u ? *u : std::uint64_t{0});
        break;
      }
      case Shape::F64: {
        const auto* d = std::get_if<double>(&s);
        append_member(out, info.name, number_json(d ? *d : 0.0));
        break;
      }
      case Shape::VecU64: {
        const auto* v = std::get_if<std::vector<std::uint64_t>>(&s);
        append_member(out, info.name, v ? ordered_json(*v) : ordered_json::array());
        break;
      }
      case Shape::VecF64: {
        ordered_json arr = ordered_json::array();
        if (const auto* v = std::get_if<std::vector<double>>(&s)) {
          for (double x : *v) arr.push_back(number_json(x));
        }
        append_member(out, info.name, std::move(arr));
        break;
      }
      case Shape::Formula: {
        std::vector<std::size_t> stack;
        const double x = formula_value(id, values, stack);
        // An integer-valued formula (a sum of counters) is written as an
        // integer: 1624, not 1624.0. min/max of an empty pattern is NaN: null.
        if (integral(id) && std::isfinite(x) && std::fabs(x) < 9.0e15) {
          if (x >= 0) {
            append_member(out, info.name, static_cast<std::uint64_t>(x));
          } else {
            append_member(out, info.name, static_cast<std::int64_t>(x));
          }
        } else {
          append_member(out, info.name, number_json(x));
        }
        break;
      }
    }
  }
  if (!with_meta) return out;
  ordered_json wrapped = ordered_json::object();
  wrapped["values"] = std::move(out);
  wrapped["meta"] = meta_json();
  return wrapped;
}

std::string Registry::dump_json(const Values& values, bool with_meta) const {
  return to_json(values, with_meta).dump(2) + "\n";
}

std::string Registry::summary(const Values& values, const SummaryOptions& options) const {
  struct Row {
    std::string name, value, unit, description;
  };
  // Group by the collapsed name when asked to; keep natural order of the groups.
  std::map<std::string, std::vector<std::size_t>, bool (*)(const std::string&, const std::string&)> groups(
      natural_less);
  for (std::size_t id : sorted_ids()) {
    const Info& info = infos_[id];
    if (info.name.compare(0, options.prefix.size(), options.prefix) != 0) continue;
    groups[options.collapse_indices ? detail::collapse_indices(info.name) : info.name].push_back(id);
  }
  std::vector<Row> rows;
  for (const auto& [key, ids] : groups) {
    const Info& first = infos_[ids.front()];
    std::vector<double> xs;
    std::string text;
    bool vector_shape = false;
    for (std::size_t id : ids) {
      const Info& info = infos_[id];
      if (info.shape == Shape::VecU64 || info.shape == Shape::VecF64) {
        vector_shape = true;
        double total = 0.0;
        std::size_t n = 0;
        if (id < values.size()) {
          if (const auto* vu = std::get_if<std::vector<std::uint64_t>>(&values.at(id))) {
            for (std::uint64_t x : *vu) total += static_cast<double>(x);
            n = vu->size();
          } else if (const auto* vd = std::get_if<std::vector<double>>(&values.at(id))) {
            for (double x : *vd) total += x;
            n = vd->size();
          }
        }
        xs.push_back(total);
        if (ids.size() == 1) {
          std::string items;
          if (const auto* vu = id < values.size() ? std::get_if<std::vector<std::uint64_t>>(&values.at(id)) : nullptr;
              vu && vu->size() <= 8) {
            for (std::size_t i = 0; i < vu->size(); ++i) items += (i ? " " : "") + std::to_string((*vu)[i]);
            text = "[" + items + "]";
          } else {
            text = "sum " + detail::format_number(total) + " over " + std::to_string(n) + " entries";
          }
        }
      } else {
        std::vector<std::size_t> stack;
        xs.push_back(scalar_value(id, values, stack));
      }
    }
    const bool counter_like = first.kind == Kind::Counter;
    if (options.skip_zero && counter_like &&
        std::all_of(xs.begin(), xs.end(), [](double x) { return x == 0.0; })) {
      continue;
    }
    if (text.empty()) {
      if (ids.size() == 1) {
        text = detail::format_number(xs.front());
      } else {
        double total = 0.0, lo = xs.front(), hi = xs.front();
        std::size_t defined = 0;
        for (double x : xs) {
          if (std::isnan(x)) continue;
          total += x;
          lo = defined == 0 ? x : std::min(lo, x);
          hi = defined == 0 ? x : std::max(hi, x);
          ++defined;
        }
        const double shown = counter_like || vector_shape ? total : (defined ? total / defined : std::nan(""));
        text = detail::format_number(shown) + (counter_like || vector_shape ? " (sum of " : " (mean of ") +
               std::to_string(ids.size()) + ", " + detail::format_number(defined ? lo : std::nan("")) + ".." +
               detail::format_number(defined ? hi : std::nan("")) + ")";
      }
    }
    rows.push_back(Row{key, text, first.unit, first.description});
  }
  std::size_t wn = 4, wv = 5, wu = 4;
  for (const Row& r : rows) {
    wn = std::max(wn, r.name.size());
    wv = std::max(wv, r.value.size());
    wu = std::max(wu, r.unit.size());
  }
  std::ostringstream out;
  auto pad = [](const std::string& s, std::size_t w) { return s + std::string(w - s.size(), ' '); };
  out << pad("name", wn) << "  " << pad("value", wv) << "  " << pad("unit", wu) << "  description\n";
  for (const Row& r : rows) {
    out << pad(r.name, wn) << "  " << pad(r.value, wv) << "  " << pad(r.unit, wu) << "  " << r.description << "\n";
  }
  return out.str();
}

std::string Registry::describe() const {
  std::ostringstream out;
  for (std::size_t id : sorted_ids()) {
    const Info& info = infos_[id];
    out << info.name << "  [" << kind_name(info.kind);
    if (!info.unit.empty()) out << ", " << info.unit;
    out << "]  " << info.description;
    if (info.kind == Kind::Formula) out << "  = " << info.expression;
    out << "\n";
  }
  return out.str();
}

// ---------------------------------------------------------------- KernelRecorder

KernelRecorder::KernelRecorder(const Registry& registry) : registry_(&registry), baseline_(registry.capture()) {}

std::size_t KernelRecorder::begin(const std::string& kernel) {
  if (max_records_ != 0) {
    // Make room for the new window among the finished ones (an open window is
    // never dropped: its handle is in use).
    std::size_t drop = 0;
    while (records_.size() - drop >= max_records_ && drop < records_.size() && records_[drop].finished) ++drop;
    records_.erase(records_.begin(), records_.begin() + static_cast<std::ptrdiff_t>(drop));
    dropped_ += drop;
  }
  Record r;
  r.index = next_index_++;
  r.kernel = kernel;
  r.start = registry_->capture();
  records_.push_back(std::move(r));
  return records_.back().index;
}

std::size_t KernelRecorder::position_of(std::size_t handle) const {
  // Records are in index order and only a prefix is ever dropped.
  const std::size_t first = records_.empty() ? next_index_ : records_.front().index;
  if (handle < first || handle - first >= records_.size()) {
    throw Error(ErrorKind::Internal, "KernelRecorder: no kernel window " + std::to_string(handle) +
                                         (handle < first ? " (dropped by keep_last)" : ""));
  }
  return handle - first;
}

const KernelRecorder::Record& KernelRecorder::window(std::size_t handle) const { return records_[position_of(handle)]; }

void KernelRecorder::end(std::size_t handle) {
  Record& r = records_[position_of(handle)];
  if (r.finished) {
    throw Error(ErrorKind::Internal, "KernelRecorder::end: handle " + std::to_string(handle) +
                                         " is not an open kernel window (it has finished)");
  }
  r.values = registry_->since(r.start);
  r.start = Values();
  r.finished = true;
}

ordered_json KernelRecorder::to_json(bool with_meta) const {
  ordered_json out = ordered_json::object();
  out["format"] = "simtlm-stats/1";
  ordered_json kernels = ordered_json::array();
  for (const Record& r : records_) {
    if (!r.finished) continue;
    ordered_json k = ordered_json::object();
    k["index"] = r.index;
    k["kernel"] = r.kernel;
    k["stats"] = registry_->to_json(r.values);
    kernels.push_back(std::move(k));
  }
  out["kernels"] = std::move(kernels);
  if (dropped_ != 0) out["kernels_dropped"] = dropped_;
  out["total"] = registry_->to_json(total());
  if (with_meta) out["meta"] = registry_->meta_json();
  return out;
}

std::string KernelRecorder::dump_json(bool with_meta) const { return to_json(with_meta).dump(2) + "\n"; }

std::string KernelRecorder::summary(const SummaryOptions& options) const {
  std::ostringstream out;
  if (dropped_ != 0) out << "== " << dropped_ << " earlier kernel window(s) not kept (keep_last)\n\n";
  for (const Record& r : records_) {
    if (!r.finished) continue;
    out << "== kernel " << r.index << ": " << r.kernel << "\n" << registry_->summary(r.values, options) << "\n";
  }
  out << "== total\n" << registry_->summary(total(), options);
  return out.str();
}

}  // namespace simtlm::stats
