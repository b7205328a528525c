// Statistics tree: registration, names and patterns, snapshots and windows,
// formulas and aggregates, deterministic JSON, text summary, kernel recorder.
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "simtlm/stats.h"

namespace {

using namespace simtlm::stats;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Internal) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no simtlm::Error thrown";
  return std::string();
}

// A stand-in for an SM module: owns its counters, registers pointers.
struct FakeSm {
  std::uint64_t cycles = 0, warp_insts = 0, hits = 0, misses = 0, active_warps = 0;
  std::vector<std::uint64_t> bank_conflicts = std::vector<std::uint64_t>(4, 0);
  void register_stats(Registry& reg, std::size_t index) {
    Group g = Group(reg, "gpu").child("sm", index);
    g.counter("cycles", &cycles, "cycles", "Core cycles with work");
    g.counter("warp_insts", &warp_insts, "instructions", "Warp instructions issued");
    g.level("active_warps", &active_warps, "warps", "Resident warps now");
    g.vector("bank_conflicts", &bank_conflicts, "conflicts", "Register bank conflicts per bank");
    g.formula("ipc", "@warp_insts / @cycles", "instructions/cycle", "Warp instructions per cycle");
    Group l1 = g.child("l1d");
    l1.counter("hits", &hits, "accesses", "L1D hits");
    l1.counter("misses", &misses, "accesses", "L1D misses");
    l1.formula("hit_rate", "@hits / (@hits + @misses)", "ratio", "L1D hit rate");
  }
};

TEST(Stats, RegistryReadsOwnersCountersThroughPointers) {
  Registry reg;
  std::uint64_t hits = 0;
  reg.counter("gpu.l2[0].hits", &hits, "accesses", "L2 hits");
  ++hits;  // the hot path: a plain increment of the module's own integer
  hits += 4;
  const Values v = reg.capture();
  EXPECT_DOUBLE_EQ(reg.value("gpu.l2[0].hits", v), 5.0);
  EXPECT_EQ(reg.info("gpu.l2[0].hits").unit, "accesses");
  EXPECT_EQ(reg.info("gpu.l2[0].hits").kind, Kind::Counter);
  EXPECT_TRUE(reg.contains("gpu.l2[0].hits"));
  EXPECT_FALSE(reg.contains("gpu.l2[1].hits"));
}

TEST(Stats, RegistrationErrors) {
  Registry reg;
  std::uint64_t x = 0;
  reg.counter("gpu.x", &x, "", "");
  EXPECT_NE(error_of([&] { reg.counter("gpu.x", &x, "", ""); }).find("registered twice"), std::string::npos);
  EXPECT_NE(error_of([&] { reg.counter("gpu..x", &x, "", ""); }).find("malformed"), std::string::npos);
  EXPECT_NE(error_of([&] { reg.counter("gpu.sm[a].x", &x, "", ""); }).find("malformed"), std::string::npos);
  EXPECT_NE(error_of([&] { reg.counter("gpu.sm[*].x", &x, "", ""); }).find("malformed"), std::string::npos);
  EXPECT_NE(error_of([&] { reg.counter("3gpu", &x, "", ""); }).find("malformed"), std::string::npos);
  EXPECT_NE(error_of([&] { reg.counter("gpu.null", nullptr, "", ""); }).find("null pointer"), std::string::npos);
}

TEST(Stats, GroupsBuildHierarchicalNames) {
  Registry reg;
  FakeSm sm;
  sm.register_stats(reg, 3);
  const std::vector<std::string> expected = {"gpu.sm[3].active_warps", "gpu.sm[3].bank_conflicts", "gpu.sm[3].cycles",
                                             "gpu.sm[3].ipc",          "gpu.sm[3].l1d.hit_rate",   "gpu.sm[3].l1d.hits",
                                             "gpu.sm[3].l1d.misses",   "gpu.sm[3].warp_insts"};
  EXPECT_EQ(reg.names(), expected);
  EXPECT_EQ(reg.info("gpu.sm[3].l1d.hit_rate").expression,
            "gpu.sm[3].l1d.hits / (gpu.sm[3].l1d.hits + gpu.sm[3].l1d.misses)");
}

TEST(Stats, NaturalOrderPutsSm2BeforeSm10) {
  EXPECT_TRUE(natural_less("gpu.sm[2].x", "gpu.sm[10].x"));
  EXPECT_FALSE(natural_less("gpu.sm[10].x", "gpu.sm[2].x"));
  EXPECT_TRUE(natural_less("gpu.l1d.x", "gpu.l2.x"));
  EXPECT_TRUE(natural_less("a", "ab"));
  Registry reg;
  std::vector<std::uint64_t> c(12, 0);
  for (std::size_t i = 12; i-- > 0;) reg.counter("gpu.sm[" + std::to_string(i) + "].cycles", &c[i], "", "");
  const auto names = reg.names();
  ASSERT_EQ(names.size(), 12u);
  EXPECT_EQ(names[1], "gpu.sm[1].cycles");
  EXPECT_EQ(names[2], "gpu.sm[2].cycles");
  EXPECT_EQ(names[10], "gpu.sm[10].cycles");
}

TEST(Stats, PatternsMatchIndicesAndSegments) {
  EXPECT_TRUE(name_matches("gpu.sm[*].l1d.hits", "gpu.sm[14].l1d.hits"));
  EXPECT_FALSE(name_matches("gpu.sm[*].l1d.hits", "gpu.sm[14].l1d.misses"));
  EXPECT_FALSE(name_matches("gpu.sm[*].l1d.hits", "gpu.sm.l1d.hits"));
  EXPECT_TRUE(name_matches("gpu.*.hits", "gpu.l2.hits"));
  EXPECT_FALSE(name_matches("gpu.*.hits", "gpu.sm[0].l1d.hits"));
  EXPECT_TRUE(name_matches("gpu.mem[*].bank[*]", "gpu.mem[1].bank[7]"));
  Registry reg;
  FakeSm a, b;
  a.register_stats(reg, 0);
  b.register_stats(reg, 1);
  EXPECT_EQ(reg.match("gpu.sm[*].l1d.hits"), (std::vector<std::string>{"gpu.sm[0].l1d.hits", "gpu.sm[1].l1d.hits"}));
}

TEST(Stats, WindowsDiffCountersAndKeepLevels) {
  Registry reg;
  FakeSm sm;
  double energy = 1.5;
  std::vector<double> power = {1.0, 2.0};
  sm.register_stats(reg, 0);
  reg.scalar("gpu.energy_nj", &energy, "nJ", "Dynamic energy");
  reg.vector("gpu.power_w", &power, "W", "Power per domain", Kind::Level);
  sm.cycles = 100;
  sm.warp_insts = 50;
  sm.active_warps = 12;
  sm.bank_conflicts = {1, 2, 3, 4};
  const Values start = reg.capture();
  sm.cycles = 300;
  sm.warp_insts = 450;
  sm.active_warps = 7;
  sm.bank_conflicts = {1, 5, 3, 10};
  energy = 4.0;
  power = {3.0, 4.0};
  const Values w = reg.since(start);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].cycles", w), 200.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].warp_insts", w), 400.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].active_warps", w), 7.0);  // level: value at the end
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].ipc", w), 2.0);            // formula over the window
  EXPECT_DOUBLE_EQ(reg.value("gpu.energy_nj", w), 2.5);
  const nlohmann::ordered_json j = reg.to_json(w);
  EXPECT_EQ(j["gpu.sm[0].bank_conflicts"], nlohmann::ordered_json({0, 3, 0, 6}));
  EXPECT_EQ(j["gpu.power_w"], nlohmann::ordered_json({3.0, 4.0}));
}

TEST(Stats, StatisticRegisteredAfterSnapshotCountsFromZero) {
  Registry reg;
  std::uint64_t a = 10, b = 7;
  reg.counter("a", &a, "", "");
  const Values start = reg.capture();
  reg.counter("b", &b, "", "");
  const Values w = reg.since(start);
  EXPECT_DOUBLE_EQ(reg.value("a", w), 0.0);
  EXPECT_DOUBLE_EQ(reg.value("b", w), 7.0);
  EXPECT_DOUBLE_EQ(reg.value("b", start), 0.0);
}

TEST(Stats, FormulasAndAggregates) {
  Registry reg;
  FakeSm sms[3];
  for (std::size_t i = 0; i < 3; ++i) {
    sms[i].register_stats(reg, i);
    sms[i].cycles = 100;
    sms[i].warp_insts = 100 * (i + 1);
    sms[i].hits = 30 * i;
    sms[i].misses = 10;
    sms[i].bank_conflicts = {i, i, i, i};
  }
  std::uint64_t cycles = 100;
  reg.counter("gpu.cycles", &cycles, "cycles", "GPU cycles");
  reg.formula("gpu.warp_insts", "sum(gpu.sm[*].warp_insts)", "instructions", "All SMs");
  reg.formula("gpu.ipc", "gpu.warp_insts / gpu.cycles", "instructions/cycle", "GPU IPC");
  reg.formula("gpu.l1d.hit_rate", "sum(gpu.sm[*].l1d.hits) / (sum(gpu.sm[*].l1d.hits) + sum(gpu.sm[*].l1d.misses))",
              "ratio", "L1D hit rate, all SMs");
  reg.formula("gpu.dram.bandwidth_gbps", "gpu.warp_insts * 32 / (gpu.cycles / 700e6) / 1e9", "GB/s", "example");
  const Values v = reg.capture();
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", v), 600.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.ipc", v), 6.0);  // a formula using a formula
  EXPECT_DOUBLE_EQ(reg.value("gpu.l1d.hit_rate", v), 90.0 / 120.0);
  EXPECT_NEAR(reg.value("gpu.dram.bandwidth_gbps", v), 134.4, 1e-9);  // 19200 B in 100 cycles at 700 MHz
  EXPECT_DOUBLE_EQ(reg.sum("gpu.sm[*].warp_insts", v), 600.0);
  EXPECT_DOUBLE_EQ(reg.evaluate("avg(gpu.sm[*].warp_insts)", v), 200.0);
  EXPECT_DOUBLE_EQ(reg.evaluate("min(gpu.sm[*].ipc)", v), 1.0);
  EXPECT_DOUBLE_EQ(reg.evaluate("max(gpu.sm[*].ipc)", v), 3.0);
  EXPECT_DOUBLE_EQ(reg.evaluate("count(gpu.sm[*].cycles)", v), 3.0);
  EXPECT_DOUBLE_EQ(reg.evaluate("sum(gpu.sm[*].bank_conflicts)", v), 12.0);  // vector elements
  EXPECT_DOUBLE_EQ(reg.evaluate("-(2 + 3) * 4 - .5", v), -20.5);
  EXPECT_TRUE(std::isnan(reg.evaluate("avg(gpu.nothing[*].x)", v)));
  EXPECT_DOUBLE_EQ(reg.evaluate("sum(gpu.nothing[*].x)", v), 0.0);
}

TEST(Stats, DivisionByZeroIsUndefinedAndDumpsNull) {
  Registry reg;
  FakeSm sm;
  sm.register_stats(reg, 0);
  const Values v = reg.capture();
  EXPECT_TRUE(std::isnan(reg.value("gpu.sm[0].ipc", v)));
  const nlohmann::ordered_json j = reg.to_json(v);
  EXPECT_TRUE(j["gpu.sm[0].ipc"].is_null());
  EXPECT_TRUE(j["gpu.sm[0].l1d.hit_rate"].is_null());
  EXPECT_NE(reg.dump_json(v).find("\"gpu.sm[0].ipc\": null"), std::string::npos);
}

TEST(Stats, FormulaErrors) {
  Registry reg;
  std::uint64_t x = 0;
  reg.counter("a.x", &x, "", "");
  const std::string syntax = error_of([&] { reg.formula("a.bad", "a.x / (a.x + ", "", ""); });
  EXPECT_NE(syntax.find("'a.bad'"), std::string::npos) << syntax;
  EXPECT_NE(syntax.find("column"), std::string::npos) << syntax;
  EXPECT_NE(error_of([&] { reg.formula("a.f", "median(a.*)", "", ""); }).find("unknown function 'median'"),
            std::string::npos);
  EXPECT_NE(error_of([&] { reg.formula("a.g", "a[*].x + 1", "", ""); }).find("wildcards are only allowed"),
            std::string::npos);
  EXPECT_FALSE(reg.contains("a.bad"));
  reg.formula("a.unknown", "a.y * 2", "", "");
  const Values v = reg.capture();
  EXPECT_NE(error_of([&] { reg.value("a.unknown", v); }).find("uses unknown statistic 'a.y'"), std::string::npos);
  reg.formula("a.p", "a.q + 1", "", "");
  reg.formula("a.q", "a.p + 1", "", "");
  EXPECT_NE(error_of([&] { reg.value("a.p", v); }).find("cycle: a.p -> a.q -> a.p"), std::string::npos);
  std::vector<std::uint64_t> vec(2, 1);
  reg.vector("a.v", &vec, "", "");
  reg.formula("a.usev", "a.v + 1", "", "");
  EXPECT_NE(error_of([&] { reg.value("a.usev", v); }).find("is a vector; use sum(a.v)"), std::string::npos);
}

// Two registries with the same statistics registered in different orders and
// the same values give byte-identical dumps.
TEST(Stats, JsonIsDeterministicAndOrderIndependent) {
  FakeSm a[12], b[12];
  Registry ra, rb;
  std::uint64_t ca = 123456789012345ull, cb = 123456789012345ull;
  for (std::size_t i = 0; i < 12; ++i) {
    a[i].register_stats(ra, i);
    b[11 - i].register_stats(rb, 11 - i);
  }
  ra.counter("gpu.cycles", &ca, "cycles", "GPU cycles");
  rb.counter("gpu.cycles", &cb, "cycles", "GPU cycles");
  for (std::size_t i = 0; i < 12; ++i) {
    for (FakeSm* s : {&a[i], &b[i]}) {
      s->cycles = 1000 + i;
      s->warp_insts = 777 * i;
      s->hits = 3 * i;
      s->misses = 7;
    }
  }
  const std::string ja = ra.dump_json(ra.capture(), true);
  const std::string jb = rb.dump_json(rb.capture(), true);
  EXPECT_EQ(ja, jb);
  EXPECT_EQ(ja, ra.dump_json(ra.capture(), true));  // repeatable
  EXPECT_LT(ja.find("\"gpu.sm[2].cycles\""), ja.find("\"gpu.sm[10].cycles\""));
  EXPECT_NE(ja.find("\"gpu.cycles\": 123456789012345,"), std::string::npos);  // integers stay integers
  EXPECT_NE(ja.find("\"gpu.sm[1].ipc\": 0.7762237762237763"), std::string::npos);  // shortest round trip
  const nlohmann::ordered_json parsed = nlohmann::ordered_json::parse(ja);
  EXPECT_EQ(parsed["meta"]["gpu.sm[0].ipc"]["formula"], "gpu.sm[0].warp_insts / gpu.sm[0].cycles");
  EXPECT_EQ(parsed["meta"]["gpu.sm[0].active_warps"]["kind"], "level");
  EXPECT_EQ(parsed["meta"]["gpu.cycles"]["unit"], "cycles");
}

// A formula over integer statistics without division is an integer in JSON
// (1624, not 1624.0), whatever its value; a ratio stays a floating number
// even when its value is whole.
TEST(Stats, IntegerFormulasDumpAsIntegers) {
  Registry reg;
  FakeSm sms[2];
  for (std::size_t i = 0; i < 2; ++i) {
    sms[i].register_stats(reg, i);
    sms[i].cycles = 10;
    sms[i].warp_insts = 812;
    sms[i].bank_conflicts = {1, 2, 3, 4};
  }
  double scaled = 2.0;
  reg.scalar("gpu.scaled", &scaled, "", "");
  reg.formula("gpu.insts", "sum(gpu.sm[*].warp_insts)", "", "");
  reg.formula("gpu.most", "max(gpu.sm[*].warp_insts) - min(gpu.sm[*].cycles) * 2 + count(gpu.sm[*].cycles)", "", "");
  reg.formula("gpu.conflicts", "sum(gpu.sm[*].bank_conflicts)", "", "");
  reg.formula("gpu.nested", "gpu.insts - 2000", "", "");
  reg.formula("gpu.ratio", "gpu.insts / gpu.insts", "", "");            // 1, but a ratio
  reg.formula("gpu.mean", "avg(gpu.sm[*].warp_insts)", "", "");          // 812, but a mean
  reg.formula("gpu.decimal", "gpu.insts * 1.0", "", "");                 // a decimal literal
  reg.formula("gpu.of_double", "gpu.scaled + 1", "", "");                // over a double statistic
  reg.formula("gpu.empty_max", "max(gpu.none[*].x)", "", "");            // undefined: null
  const std::string text = reg.dump_json(reg.capture());
  EXPECT_NE(text.find("\"gpu.insts\": 1624,"), std::string::npos) << text;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
  EXPECT_TRUE(j["gpu.insts"].is_number_unsigned());
  EXPECT_EQ(j["gpu.most"], 812 - 20 + 2);
  EXPECT_TRUE(j["gpu.most"].is_number_integer());
  EXPECT_TRUE(j["gpu.conflicts"].is_number_integer());
  EXPECT_EQ(j["gpu.conflicts"], 20);
  EXPECT_TRUE(j["gpu.nested"].is_number_integer());
  EXPECT_EQ(j["gpu.nested"], -376);
  EXPECT_TRUE(j["gpu.ratio"].is_number_float());
  EXPECT_TRUE(j["gpu.mean"].is_number_float());
  EXPECT_TRUE(j["gpu.decimal"].is_number_float());
  EXPECT_TRUE(j["gpu.of_double"].is_number_float());
  EXPECT_TRUE(j["gpu.sm[0].ipc"].is_number_float());
  EXPECT_TRUE(j["gpu.empty_max"].is_null());
}

// Several windows taken together: counters (and vector elements) add, a
// level keeps the largest of the windows' values; formulas follow.
TEST(Stats, AccumulateCombinesWindows) {
  Registry reg;
  FakeSm sm;
  sm.register_stats(reg, 0);
  KernelRecorder rec(reg);
  const std::size_t a = rec.begin("a");
  sm.cycles = 100;
  sm.warp_insts = 50;
  sm.active_warps = 7;
  sm.bank_conflicts = {1, 0, 0, 2};
  rec.end(a);
  const std::size_t b = rec.begin("a");
  sm.cycles = 400;
  sm.warp_insts = 350;
  sm.active_warps = 3;
  sm.bank_conflicts = {1, 5, 0, 2};
  rec.end(b);
  Values both;
  reg.accumulate(both, rec.window(a).values);
  reg.accumulate(both, rec.window(b).values);
  EXPECT_EQ(reg.value("gpu.sm[0].cycles", both), 400.0);      // 100 + 300
  EXPECT_EQ(reg.value("gpu.sm[0].warp_insts", both), 350.0);  // 50 + 300
  EXPECT_EQ(reg.value("gpu.sm[0].active_warps", both), 7.0);  // max(7, 3)
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].ipc", both), 350.0 / 400.0);
  EXPECT_EQ(reg.vector_sum("gpu.sm[*].bank_conflicts", both), (std::vector<double>{1, 5, 0, 2}));
  EXPECT_EQ(reg.vector_sum("gpu.sm[*].bank_conflicts", rec.window(b).values), (std::vector<double>{0, 5, 0, 0}));
  EXPECT_TRUE(reg.vector_sum("gpu.none[*].x", both).empty());
}

TEST(Stats, MakeCounterIsStableRegistryOwnedStorage) {
  Registry reg;
  Group g(reg, "gpu.noc");
  std::uint64_t& flits = g.make_counter("flits", "flits", "Flits moved");
  for (int i = 0; i < 100; ++i) {
    std::uint64_t& other = reg.make_counter("gpu.noc.port[" + std::to_string(i) + "].flits", "flits", "");
    other = static_cast<std::uint64_t>(i);
  }
  flits += 42;
  EXPECT_DOUBLE_EQ(reg.value("gpu.noc.flits", reg.capture()), 42.0);
  EXPECT_DOUBLE_EQ(reg.sum("gpu.noc.port[*].flits", reg.capture()), 4950.0);
}

TEST(Stats, SummaryCollapsesIndexedStatistics) {
  Registry reg;
  FakeSm sms[2];
  for (std::size_t i = 0; i < 2; ++i) {
    sms[i].register_stats(reg, i);
    sms[i].cycles = 10;
    sms[i].warp_insts = 10 * (i + 1);
  }
  const Values v = reg.capture();
  const std::string s = reg.summary(v);
  EXPECT_NE(s.find("gpu.sm[*].warp_insts"), std::string::npos) << s;
  EXPECT_NE(s.find("30 (sum of 2, 10..20)"), std::string::npos) << s;
  EXPECT_NE(s.find("1.5 (mean of 2, 1..2)"), std::string::npos) << s;  // ipc
  EXPECT_NE(s.find("instructions/cycle"), std::string::npos) << s;
  EXPECT_NE(s.find("Warp instructions per cycle"), std::string::npos) << s;
  SummaryOptions flat;
  flat.collapse_indices = false;
  flat.prefix = "gpu.sm[1].";
  flat.skip_zero = true;
  const std::string f = reg.summary(v, flat);
  EXPECT_NE(f.find("gpu.sm[1].warp_insts"), std::string::npos) << f;
  EXPECT_EQ(f.find("gpu.sm[0]."), std::string::npos) << f;
  EXPECT_EQ(f.find("gpu.sm[1].l1d.hits"), std::string::npos) << f;  // zero counter skipped
  EXPECT_NE(f.find("n/a"), std::string::npos) << f;                   // undefined hit rate
  EXPECT_NE(reg.describe().find("gpu.sm[0].ipc  [formula, instructions/cycle]  Warp instructions per cycle  = "),
            std::string::npos);
}

TEST(Stats, KernelRecorderGivesPerKernelWindowsAndTotal) {
  Registry reg;
  FakeSm sm;
  sm.register_stats(reg, 0);
  sm.cycles = 5;  // activity before the recorder (elaboration) is not counted
  KernelRecorder rec(reg);
  const std::size_t k0 = rec.begin("vecadd");
  sm.cycles += 100;
  sm.warp_insts += 200;
  rec.end(k0);
  sm.cycles += 10;  // idle gap between kernels
  const std::size_t k1 = rec.begin("reduce");
  sm.cycles += 50;
  sm.warp_insts += 25;
  rec.end(k1);
  ASSERT_EQ(rec.kernels().size(), 2u);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].cycles", rec.kernels()[0].values), 100.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].ipc", rec.kernels()[0].values), 2.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].cycles", rec.kernels()[1].values), 50.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].ipc", rec.kernels()[1].values), 0.5);
  EXPECT_DOUBLE_EQ(reg.value("gpu.sm[0].cycles", rec.total()), 160.0);
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(rec.dump_json());
  EXPECT_EQ(j["format"], "simtlm-stats/1");
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][1]["kernel"], "reduce");
  EXPECT_EQ(j["kernels"][1]["index"], 1);
  EXPECT_EQ(j["kernels"][1]["stats"]["gpu.sm[0].warp_insts"], 25);
  EXPECT_EQ(j["total"]["gpu.sm[0].warp_insts"], 225);
  EXPECT_TRUE(j.contains("meta"));
  const std::string s = rec.summary();
  EXPECT_NE(s.find("== kernel 0: vecadd"), std::string::npos) << s;
  EXPECT_NE(s.find("== total"), std::string::npos) << s;
  EXPECT_NE(error_of([&] { rec.end(k1); }).find("not an open kernel window"), std::string::npos);
}

TEST(Stats, OverlappingKernelWindows) {
  Registry reg;
  std::uint64_t insts = 0;
  reg.counter("gpu.warp_insts", &insts, "instructions", "");
  KernelRecorder rec(reg);
  const std::size_t a = rec.begin("a");
  insts += 10;
  const std::size_t b = rec.begin("b");
  insts += 5;
  rec.end(a);
  insts += 1;
  rec.end(b);
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.kernels()[a].values), 15.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.kernels()[b].values), 6.0);
  const nlohmann::ordered_json j = rec.to_json(false);
  EXPECT_FALSE(j.contains("meta"));
}

TEST(Stats, KeepLastBoundsTheKeptWindowsButNotTheTotal) {
  Registry reg;
  std::uint64_t insts = 0;
  reg.counter("gpu.warp_insts", &insts, "instructions", "");
  KernelRecorder rec(reg);
  rec.keep_last(2);
  std::vector<std::size_t> handles;
  for (unsigned k = 0; k < 5; ++k) {
    handles.push_back(rec.begin("k" + std::to_string(k)));
    insts += 10 * (k + 1);
    rec.end(handles.back());
    // The window just ended stays readable by its handle.
    EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.window(handles.back()).values), 10.0 * (k + 1));
  }
  ASSERT_EQ(rec.kernels().size(), 2u);
  EXPECT_EQ(rec.dropped(), 3u);
  EXPECT_EQ(rec.kernels()[0].index, 3u);
  EXPECT_EQ(rec.kernels()[1].kernel, "k4");
  EXPECT_NE(error_of([&] { rec.window(handles[0]); }).find("dropped"), std::string::npos);
  // 10 + 20 + 30 + 40 + 50: the total does not depend on what is kept.
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.total()), 150.0);
  const nlohmann::ordered_json j = rec.to_json(false);
  ASSERT_EQ(j["kernels"].size(), 2u);
  EXPECT_EQ(j["kernels"][0]["index"], 3);
  EXPECT_EQ(j["kernels_dropped"], 3);
  EXPECT_EQ(j["total"]["gpu.warp_insts"], 150);
  EXPECT_NE(rec.summary().find("3 earlier kernel window(s) not kept"), std::string::npos);
}

TEST(Stats, KeepLastNeverDropsAnOpenWindow) {
  Registry reg;
  std::uint64_t insts = 0;
  reg.counter("gpu.warp_insts", &insts, "instructions", "");
  KernelRecorder rec(reg);
  rec.keep_last(1);
  const std::size_t a = rec.begin("a");
  insts += 3;
  const std::size_t b = rec.begin("b");  // a is open: nothing to drop, two windows kept
  insts += 4;
  rec.end(a);
  rec.end(b);
  EXPECT_EQ(rec.kernels().size(), 2u);
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.window(a).values), 7.0);
  EXPECT_DOUBLE_EQ(reg.value("gpu.warp_insts", rec.window(b).values), 4.0);
  const std::size_t c = rec.begin("c");  // both finished: both dropped
  rec.end(c);
  ASSERT_EQ(rec.kernels().size(), 1u);
  EXPECT_EQ(rec.kernels()[0].kernel, "c");
  EXPECT_FALSE(rec.to_json(false).contains("meta"));
}

}  // namespace
