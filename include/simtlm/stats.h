// Statistics tree (gem5/DRAMSys style). Modules own their counters as plain
// integers and register pointers to them under hierarchical names
// ("gpu.sm[3].l1d.hits") with a unit and a description; the hot path is a
// plain `++hits_`. Derived figures (IPC, hit rates, bandwidth) are formulas
// over other statistics, evaluated when values are dumped. Snapshots taken at
// kernel start give per-kernel differences at kernel end; dumps are JSON with
// a deterministic key order and number format, or a readable text summary.
//
//   stats::Registry reg;
//   stats::Group l1(reg, "gpu.sm[3].l1d");
//   l1.counter("hits", &hits_, "accesses", "L1D hits");
//   l1.counter("misses", &misses_, "accesses", "L1D misses");
//   l1.formula("hit_rate", "@hits / (@hits + @misses)", "ratio", "L1D hit rate");
//   reg.formula("gpu.l1d_hits", "sum(gpu.sm[*].l1d.hits)", "accesses", "L1D hits, all SMs");
//
//   stats::KernelRecorder rec(reg);
//   auto k = rec.begin("vecadd");  ...simulate...  rec.end(k);
//   std::string json = rec.dump_json();   // {"kernels": [...], "total": {...}}
//
// Names: segments [A-Za-z_][A-Za-z0-9_]* each optionally followed by [index]
// groups, joined by '.'. Patterns (match, sum, formulas' aggregate functions)
// may use [*] for any index and * for any whole segment.
// Counters are monotonic: never reset them; per-kernel values are differences.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <variant>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "simtlm/error.h"

namespace simtlm::stats {

// How a statistic behaves across a snapshot window.
enum class Kind {
  Counter,  // accumulates; the value over a window is end - start
  Level,    // an instantaneous value (occupancy, queue length); a window reports the end value
  Formula,  // derived; evaluated from the other values of the same window
};

enum class Shape { U64, F64, VecU64, VecF64, Formula };

struct Info {
  std::string name;
  std::string unit;
  std::string description;
  Kind kind = Kind::Counter;
  Shape shape = Shape::U64;
  std::string expression;  // formulas only, as registered (after '@' expansion)
};

// The value of one statistic in a captured set.
using Sample = std::variant<std::monostate, std::uint64_t, double, std::vector<std::uint64_t>, std::vector<double>>;

// A captured set of values: a snapshot of the registry, or the difference
// between the registry now and an earlier snapshot. Formulas are not stored;
// they are evaluated from these values when asked for.
class Values {
 public:
  Values() = default;
  std::size_t size() const { return samples_.size(); }
  const Sample& at(std::size_t id) const { return samples_.at(id); }

 private:
  friend class Registry;
  std::vector<Sample> samples_;  // indexed by registration id
};

struct SummaryOptions {
  bool collapse_indices = true;  // show gpu.sm[*].x once (sum for counters, mean for levels/formulas)
  std::string prefix;            // only statistics whose name starts with this
  bool skip_zero = false;        // omit counters that are zero
};

class Registry {
 public:
  Registry();
  ~Registry();
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Module-owned statistics. The registry keeps only the pointer: the owner
  // must outlive every capture. Duplicate or malformed names: Error(Internal).
  void counter(const std::string& name, const std::uint64_t* value, const std::string& unit,
               const std::string& description);
  void level(const std::string& name, const std::uint64_t* value, const std::string& unit,
             const std::string& description);
  void scalar(const std::string& name, const double* value, const std::string& unit, const std::string& description,
              Kind kind = Kind::Counter);
  void vector(const std::string& name, const std::vector<std::uint64_t>* values, const std::string& unit,
              const std::string& description, Kind kind = Kind::Counter);
  void vector(const std::string& name, const std::vector<double>* values, const std::string& unit,
              const std::string& description, Kind kind = Kind::Counter);
  // A counter owned by the registry (stable address for the registry's lifetime).
  std::uint64_t& make_counter(const std::string& name, const std::string& unit, const std::string& description);
  // A derived statistic: + - * / ( ), numbers, statistic names, and the
  // aggregates sum(p) avg(p) min(p) max(p) count(p) over a name pattern p
  // (a vector's elements count as its members). x/0 is undefined: JSON null.
  // Syntax errors are Error(Internal) at registration; unknown names at evaluation.
  void formula(const std::string& name, const std::string& expression, const std::string& unit,
               const std::string& description);

  bool contains(const std::string& name) const;
  const Info& info(const std::string& name) const;
  std::size_t size() const { return infos_.size(); }
  std::vector<std::string> names() const;                           // natural order (sm[2] < sm[10])
  std::vector<std::string> match(const std::string& pattern) const;  // natural order

  Values capture() const;                         // current values
  Values since(const Values& start) const;        // window from `start` to now
  // A scalar statistic or formula in a captured set (NaN when undefined).
  double value(const std::string& name, const Values& values) const;
  // Sum of every scalar (and vector element) matching a pattern.
  double sum(const std::string& pattern, const Values& values) const;
  // Evaluate an ad-hoc expression with the formula syntax.
  double evaluate(const std::string& expression, const Values& values) const;
  // Element-wise sum of every vector statistic matching a pattern (the
  // longest vector's length; empty when none matches).
  std::vector<double> vector_sum(const std::string& pattern, const Values& values) const;
  // Adds the window `more` to `into` (an empty `into` becomes a copy): the
  // values of several windows taken together, e.g. every launch of one kernel.
  // Counters add (vectors element-wise); a level keeps the larger value (the
  // windows' end values, so the result is their maximum).
  void accumulate(Values& into, const Values& more) const;

  // {"name": value, ...} in natural name order; formulas evaluated; undefined
  // values are null. With meta: {"values": {...}, "meta": {name: {unit, description, kind[, formula]}}}.
  nlohmann::ordered_json to_json(const Values& values, bool with_meta = false) const;
  std::string dump_json(const Values& values, bool with_meta = false) const;
  nlohmann::ordered_json meta_json() const;
  // Aligned text table: name, value, unit, description.
  std::string summary(const Values& values, const SummaryOptions& options = SummaryOptions()) const;
  // Every statistic with kind, unit and description (and formula).
  std::string describe() const;

  struct Expr;  // parsed formula (defined in the implementation)

 private:
  std::size_t add(Info info, const void* source);
  std::size_t id_of(const std::string& name) const;  // Error(Internal) if unknown
  double eval(const Expr& e, const Values& v, std::vector<std::size_t>& stack) const;
  double formula_value(std::size_t id, const Values& v, std::vector<std::size_t>& stack) const;
  // Whether a statistic only takes integer values: a u64 counter, level or
  // vector, or a formula of such over + - * sum min max count and integer
  // literals (no division, no avg). JSON writes these as integers.
  bool integral(std::size_t id) const;
  bool integral_expr(const Expr& e, std::vector<std::size_t>& stack) const;
  double scalar_value(std::size_t id, const Values& v, std::vector<std::size_t>& stack) const;
  // Ids matching a pattern in natural order (cached; valid until the next registration).
  const std::vector<std::size_t>& match_ids(const std::string& pattern) const;
  const std::vector<std::size_t>& sorted_ids() const;
  // Ids by shape, collapse_indices(name), each list in natural order.
  const std::unordered_map<std::string, std::vector<std::size_t>>& shape_ids() const;

  std::vector<Info> infos_;
  std::vector<const void*> sources_;  // pointer to the owner's value (nullptr for formulas)
  std::vector<std::shared_ptr<const Expr>> formulas_;
  std::vector<std::unique_ptr<std::uint64_t>> owned_;
  std::unordered_map<std::string, std::size_t> ids_;
  // Caches of sorted_ids(), shape_ids() and match_ids() (formulas evaluate
  // sum(...) over patterns at every dump); cleared whenever a statistic is added.
  mutable std::vector<std::size_t> sorted_cache_;
  mutable std::unordered_map<std::string, std::vector<std::size_t>> shape_cache_;
  mutable std::unordered_map<std::string, std::vector<std::size_t>> match_cache_;
  mutable std::vector<signed char> integral_cache_;  // per id: -1 unknown, 0 no, 1 yes
};

// Registers statistics under a common prefix, e.g. Group(reg, "gpu.sm[3]").child("l1d").
// In formulas, "@x" stands for "<prefix>.x".
class Group {
 public:
  Group(Registry& registry, std::string prefix);
  Group child(const std::string& name) const;                     // prefix.name
  Group child(const std::string& name, std::size_t index) const;  // prefix.name[index]
  const std::string& prefix() const { return prefix_; }
  Registry& registry() const { return *registry_; }
  std::string path(const std::string& name) const;

  void counter(const std::string& name, const std::uint64_t* value, const std::string& unit,
               const std::string& description) const;
  void level(const std::string& name, const std::uint64_t* value, const std::string& unit,
             const std::string& description) const;
  void scalar(const std::string& name, const double* value, const std::string& unit, const std::string& description,
              Kind kind = Kind::Counter) const;
  void vector(const std::string& name, const std::vector<std::uint64_t>* values, const std::string& unit,
              const std::string& description, Kind kind = Kind::Counter) const;
  std::uint64_t& make_counter(const std::string& name, const std::string& unit,
                              const std::string& description) const;
  void formula(const std::string& name, const std::string& expression, const std::string& unit,
               const std::string& description) const;

 private:
  Registry* registry_;
  std::string prefix_;
};

// Per-kernel windows and the run total. begin() snapshots the registry, end()
// stores the difference; windows of concurrent kernels overlap (each sees all
// activity during its window). The total covers everything since construction.
// Each finished window holds one value per statistic; keep_last(n) bounds how
// many are kept, so that a long-lived simulation (a virtual platform launching
// kernels for ever) does not grow with the number of launches.
class KernelRecorder {
 public:
  explicit KernelRecorder(const Registry& registry);

  struct Record {
    std::size_t index = 0;
    std::string kernel;
    bool finished = false;
    Values start;
    Values values;  // the window's values once finished
  };

  // The handle is the window's Record::index.
  std::size_t begin(const std::string& kernel);
  void end(std::size_t handle);
  // The window of a handle (Error(Internal) once keep_last() dropped it).
  const Record& window(std::size_t handle) const;
  const std::vector<Record>& kernels() const { return records_; }
  // Keep at most `n` windows (0: all): begin() drops the oldest finished
  // windows first. Record::index still counts every window since construction.
  void keep_last(std::size_t n) { max_records_ = n; }
  // Finished windows dropped by keep_last() so far.
  std::size_t dropped() const { return dropped_; }
  Values total() const { return registry_->since(baseline_); }

  // {"format": "simtlm-stats/1", "meta": {...}, "kernels": [{"index", "kernel", "stats"}], "total": {...}}
  nlohmann::ordered_json to_json(bool with_meta = true) const;
  std::string dump_json(bool with_meta = true) const;
  // Text summary of every finished kernel and of the total.
  std::string summary(const SummaryOptions& options = SummaryOptions()) const;

 private:
  // Position in records_ of a handle (Error(Internal) when not kept).
  std::size_t position_of(std::size_t handle) const;

  const Registry* registry_;
  Values baseline_;
  std::vector<Record> records_;
  std::size_t next_index_ = 0;
  std::size_t max_records_ = 0;
  std::size_t dropped_ = 0;
};

// Natural order of statistic names: numbers inside names compare by value.
bool natural_less(const std::string& a, const std::string& b);
// Whether `name` matches `pattern` ([*] any index, * any segment).
bool name_matches(const std::string& pattern, const std::string& name);

}  // namespace simtlm::stats
