// The energy model on the timing platform: leakage is leakage power x
// simulated time (a steady kernel run twice as long leaks twice as much), the
// presets' total leakage is the seed's 46.4 W (gtx480), components and
// kernels add up to the totals, the energy of a component is its counted
// events x its configured energy, and switching the model (and its power
// trace) on changes no other statistic.
#include <gmock/gmock.h>

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>

#include <nlohmann/json.hpp>

#include "testbenches/cli/cli_harness.h"
#include "testbenches/platform_timing/micro_ptx.h"
#include "testbenches/platform_timing/platform_harness.h"

namespace simtlm::test {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

double sum_of(const nlohmann::json& object) {
  double s = 0;
  for (const auto& item : object.items()) s += item.value().get<double>();
  return s;
}

// Sum of statistic `name` over SMs 0..n-1 of a window.
double sm_sum(const nlohmann::json& stats, const std::string& name, unsigned n) {
  double s = 0;
  for (unsigned i = 0; i < n; ++i) s += stats["gpu.sm[" + std::to_string(i) + "]." + name].get<double>();
  return s;
}

TEST(Energy, ASteadyKernelTwiceAsLongLeaksTwiceAsMuch) {
  auto cfg = make_config({"gpu.num_sms=2", "gpu.power.energy_pj.int_op=7", "gpu.power.energy_pj.reg_read=3"});
  Device dev(timing_options(cfg));
  ModuleHandle m = dev.load_module_string(kSpinPtx, "spin.ptx");
  DevicePtr out = dev.malloc(4);
  LaunchConfig lc;
  lc.grid = Dim3(2);
  lc.block = Dim3(64);
  for (uint32_t iters : {2000u, 4000u}) {
    KernelArgs a;
    a.add(iters).add(out);
    dev.launch(m, "spin", lc, a);
  }
  const nlohmann::json tree = nlohmann::json::parse(dev.backend_stats_json());
  ASSERT_TRUE(tree.contains("energy"));
  const nlohmann::json& k = tree["energy"]["kernels"];
  ASSERT_EQ(k.size(), 2u);
  const double c1 = k[0]["cycles"].get<double>(), c2 = k[1]["cycles"].get<double>();
  EXPECT_NEAR(c2 / c1, 2.0, 0.05);  // the loop dominates: twice the iterations, twice the time
  const double l1 = k[0]["leakage_total_j"].get<double>(), l2 = k[1]["leakage_total_j"].get<double>();
  EXPECT_NEAR(l2 / l1, c2 / c1, 1e-12);
  EXPECT_NEAR(l2 / l1, 2.0, 0.05);
  // Two SMs (2 x 2.52 W), twelve L2 slices (0.4 W), the NoC (1.4 W), six
  // controllers (0.4 W): 13.64 W, over cycles / 700 MHz.
  EXPECT_NEAR(k[0]["leakage_power_w"].get<double>(), 13.64, 1e-9);
  EXPECT_NEAR(l1, 13.64 * c1 / 700e6, 1e-15);

  const nlohmann::json& total = tree["energy"]["total"];
  for (const nlohmann::json* w : {&k[0], &k[1], &total}) {
    EXPECT_NEAR(sum_of((*w)["dynamic_j"]), (*w)["dynamic_total_j"].get<double>(), 1e-15);
    EXPECT_NEAR(sum_of((*w)["leakage_j"]), (*w)["leakage_total_j"].get<double>(), 1e-15);
    const double t = (*w)["total_j"].get<double>();
    EXPECT_NEAR(t, (*w)["dynamic_total_j"].get<double>() + (*w)["leakage_total_j"].get<double>(), 1e-15);
    EXPECT_NEAR((*w)["average_power_w"].get<double>(), t / (*w)["seconds"].get<double>(), 1e-9);
    EXPECT_NEAR((*w)["energy_per_warp_instruction_nj"].get<double>(),
                t / (*w)["warp_instructions"].get<double>() * 1e9, 1e-9);
  }
  // The run is the two launches.
  EXPECT_NEAR(total["total_j"].get<double>(), k[0]["total_j"].get<double>() + k[1]["total_j"].get<double>(), 1e-15);
  // Components from the window's counters and the configured energies.
  const nlohmann::json& s = tree["kernels"][1]["stats"];
  EXPECT_NEAR(k[1]["dynamic_j"]["SPP"].get<double>(), sm_sum(s, "class_int", 2) * 7e-12, 1e-18);
  EXPECT_GT(k[1]["dynamic_j"]["SPP"].get<double>(), 0.0);
  EXPECT_NEAR(k[1]["dynamic_j"]["RFP"].get<double>(),
              sm_sum(s, "regfile_reads", 2) * 3e-12 + sm_sum(s, "regfile_writes", 2) * 250e-12, 1e-18);
  EXPECT_EQ(k[1]["dynamic_j"]["TCP"].get<double>(), 0.0);
  EXPECT_EQ(k[1]["dynamic_j"]["SFUP"].get<double>(), 0.0);  // no special-function instruction
}

TEST_F(CliTest, PresetLeakageIsTheSeedsFigure) {
  // Rajasree Table 6.4: the GTX 480 leaks 46.4 W. The C2050 (same GF100 die,
  // 14 SMs enabled) keeps the per-instance figures: 46.4 - 2.52 = 43.88 W.
  for (auto [preset, watts] : {std::pair<const char*, double>{"gtx480", 46.4}, {"tesla_c2050", 43.88}}) {
    const std::string dir = std::string("leak_") + preset;
    CliResult r = run({"run", "vectorAdd", "--size", "small", "--config",
                       std::string(SIMTLM_SOURCE_DIR) + "/configs/" + preset + ".json", "--out", dir});
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(read_text(path(dir + "/stats.json")));
    EXPECT_NEAR(j["timing"]["energy"]["total"]["leakage_power_w"].get<double>(), watts, 1e-9) << preset;
  }
  // Instances come from the platform built: without L2 its twelve slices (4.8 W) are gone.
  CliResult r = run({"run", "vectorAdd", "--size", "small", "-p", "gpu.l2.enabled=false", "--out", "no_l2"});
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::json e = nlohmann::json::parse(read_text(path("no_l2/stats.json")))["timing"]["energy"]["total"];
  EXPECT_NEAR(e["leakage_power_w"].get<double>(), 41.6, 1e-9);
  EXPECT_FALSE(e["leakage_j"].contains("l2_slice"));
  EXPECT_EQ(e["dynamic_j"]["L2CP"].get<double>(), 0.0);
}

// stats.json without the energy section.
nlohmann::json without_energy(nlohmann::json j) {
  j["timing"].erase("energy");
  return j;
}

TEST_F(CliTest, EnergyOnOrOffChangesNoOtherStatistic) {
  CliResult on = run({"run", "bfs", "--size", "small", "-p", "gpu.num_sms=4", "--out", "on", "--trace", "power",
                      "--trace", "timeline"});
  CliResult off = run({"run", "bfs", "--size", "small", "-p", "gpu.num_sms=4", "-p", "gpu.power.enabled=false",
                       "--out", "off"});
  ASSERT_EQ(on.code, 0) << on.err;
  ASSERT_EQ(off.code, 0) << off.err;
  const nlohmann::json a = nlohmann::json::parse(read_text(path("on/stats.json")));
  const nlohmann::json b = nlohmann::json::parse(read_text(path("off/stats.json")));
  ASSERT_TRUE(a["timing"].contains("energy"));
  EXPECT_FALSE(b["timing"].contains("energy"));
  EXPECT_GT(a["launches"].get<int>(), 1);
  EXPECT_EQ(without_energy(a), b);
  // Launches add up to the run, component by component.
  const nlohmann::json& energy = a["timing"]["energy"];
  ASSERT_EQ(energy["kernels"].size(), a["launches"].get<size_t>());
  for (const auto& item : energy["total"]["dynamic_j"].items()) {
    double launches = 0;
    for (const auto& k : energy["kernels"]) launches += k["dynamic_j"][item.key()].get<double>();
    EXPECT_NEAR(launches, item.value().get<double>(), 1e-12 * (1 + launches)) << item.key();
  }
  EXPECT_THAT(read_text(path("on/summary.txt")), HasSubstr("average power"));
  EXPECT_THAT(read_text(path("off/summary.txt")), Not(HasSubstr("average power")));

  // The power trace covers every launch, interval after interval; its
  // leakage integrates to the run's leakage.
  std::istringstream csv(read_text(path("on/power.csv")));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line.rfind("kernel,begin_cycle,end_cycle,seconds,total_w,dynamic_w,leakage_w,IBP_w", 0), 0u) << line;
  double leakage_j = 0, cycles = 0;
  int rows = 0;
  while (std::getline(csv, line)) {
    std::istringstream fields(line);
    std::string kernel, begin, end, seconds, total, dynamic, leakage;
    std::getline(fields, kernel, ',');
    std::getline(fields, begin, ',');
    std::getline(fields, end, ',');
    std::getline(fields, seconds, ',');
    std::getline(fields, total, ',');
    std::getline(fields, dynamic, ',');
    std::getline(fields, leakage, ',');
    const double length = std::stod(end) - std::stod(begin);
    EXPECT_GT(length, 0) << line;
    EXPECT_LE(length, 500) << line;
    EXPECT_NEAR(std::stod(total), std::stod(dynamic) + std::stod(leakage), 1e-3 * std::stod(total)) << line;
    leakage_j += std::stod(leakage) * std::stod(seconds);
    cycles += length;
    ++rows;
  }
  EXPECT_GT(rows, 2);
  EXPECT_EQ(cycles, a["cycles"].get<double>());
  EXPECT_NEAR(leakage_j, a["timing"]["energy"]["total"]["leakage_total_j"].get<double>(),
              1e-4 * leakage_j);  // the CSV's six significant digits
  // The timeline has the power counter track.
  const nlohmann::json tl = nlohmann::json::parse(read_text(path("on/timeline.json")));
  int counters = 0;
  for (const auto& e : tl["traceEvents"]) {
    if (e.value("ph", "") == "C" && e.value("name", "") == "power") ++counters;
  }
  EXPECT_EQ(counters, rows + a["launches"].get<int>());  // one per interval, a zero after each launch

  // A power trace without the energy model is a configuration error; one
  // that cannot be written fails before the launch, naming the file.
  CliResult no_model = run({"run", "vectorAdd", "-p", "gpu.power.enabled=false", "--out", "x", "--trace", "power"});
  EXPECT_EQ(no_model.code, 2);
  EXPECT_THAT(no_model.err, HasSubstr("sim.trace.power_file"));
  CliResult unwritable = run({"run", "vectorAdd", "-p", "sim.trace.power_file=no_such_dir/power.csv"});
  EXPECT_EQ(unwritable.code, 2);
  EXPECT_THAT(unwritable.err, HasSubstr("no_such_dir/power.csv"));
}

}  // namespace
}  // namespace simtlm::test
