// The shared launch machinery (platforms/common) under a topology other than
// the GPU's: a test builder of two SMs joined by a MemMux straight onto one
// DRAM channel registers itself with the platform registry and runs a real
// kernel; a test CTA placement that puts every CTA on SM 1 is observed to do
// so. Results are checked against values computed here, not by the model.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "functional/executor.h"
#include "models/dram/dram_channel.h"
#include "models/sm/mem_mux.h"
#include "models/sm/sm.h"
#include "platforms/common/platform_registry.h"
#include "simtlm/config.h"
#include "testbenches/functional/harness.h"
#include "testbenches/runtime/ptx_samples.h"

namespace simtlm::test {
namespace {

using functional::test::Args;
using functional::test::dim;
using functional::test::Harness;

// Two SMs -> MemMux -> one DRAM channel (no crossbar, no L2).
class TinyPlatform final : public platforms::Platform {
 public:
  TinyPlatform(const sc_core::sc_module_name& name, const Config& cfg) : Platform(name, cfg) {
    for (unsigned i = 0; i < 2; ++i) {
      const std::string nm = "sm[" + std::to_string(i) + "]";
      add_sm(std::make_unique<models::Sm>(nm.c_str(), models::sm_params_from_config(cfg, i)));
    }
    models::DramParams dp = models::dram_params_from_config(cfg, cfg.u64("gpu.l2.interleave_bytes"));
    dp.channels = 1;  // the one channel sees every address
    mux_ = std::make_unique<models::MemMux>("mux", 2);
    dram_ = std::make_unique<models::DramChannel>("dram", dp);
    for (unsigned i = 0; i < 2; ++i) sm(i).mem_socket().bind(mux_->target_socket(i));
    mux_->initiator_socket().bind(dram_->target_socket);
    finish_construction();
  }

  models::DramChannel& dram() { return *dram_; }

 private:
  void register_topology_stats(const stats::Group& top) override { dram_->register_stats(top.child("dram")); }
  void refresh_topology_stats() override { dram_->stats(); }
  void summarize_topology(const stats::Values&, const platforms::SummaryLine& line) const override {
    line("memory", "one DRAM channel");
  }

  std::unique_ptr<models::MemMux> mux_;
  std::unique_ptr<models::DramChannel> dram_;
};

const platforms::PlatformRegistration kTiny("test_tiny", [](const sc_core::sc_module_name& n, const Config& c) {
  return std::make_unique<TinyPlatform>(n, c);
});

// Every CTA on SM 1, as many as it admits at a time.
class OnlySmOne final : public platforms::CtaPlacement {
 public:
  void place(platforms::PlacementTarget& t) override {
    while (t.waiting() != 0 && t.can_admit(1)) t.place(1);
  }
};

const platforms::CtaPlacementRegistration kOnlySmOne("test_only_sm1", [] { return std::make_unique<OnlySmOne>(); });

// A faulty policy: places every CTA on SM 0 without asking whether it fits.
class Overfill final : public platforms::CtaPlacement {
 public:
  void place(platforms::PlacementTarget& t) override {
    while (t.waiting() != 0) t.place(0);
  }
};

// A vector add of `n` floats in CTAs of `block` threads on `p`; checks the sums
// and returns the launch's figures.
platforms::LaunchFigures run_vec_add(platforms::Platform& p, unsigned n, unsigned block) {
  Harness h(kVecAddPtx, "vec_add.ptx");
  std::vector<float> a(n), b(n);
  for (unsigned i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i);
    b[i] = 0.5f * static_cast<float>(i) + 3.0f;
  }
  const uint64_t da = h.upload(a), db = h.upload(b), dc = h.alloc(n * sizeof(float));
  const functional::LaunchRequest r =
      h.request("vec_add", dim((n + block - 1) / block), dim(block), Args().add(da).add(db).add(dc).add(n));
  functional::LaunchContext ctx(r, h.memory());
  platforms::LaunchFigures f = p.run(ctx);
  const std::vector<float> c = h.download<float>(dc, n);
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(c[i], a[i] + b[i]) << "element " << i;
  return f;
}

std::unique_ptr<platforms::Platform> tiny() {
  Config cfg;
  cfg.validate();
  return platforms::make_platform("test_tiny", "tiny", cfg);
}

TEST(TestPlatform, RunsAKernelThroughTheSharedLaunchMachinery) {
  auto p = tiny();
  ASSERT_EQ(p->num_sms(), 2u);
  const platforms::LaunchFigures f = run_vec_add(*p, 1000, 128);
  EXPECT_EQ(f.ctas, 8u);
  EXPECT_GT(f.cycles, 0u);
  // Every thread of the 8 CTAs issues; at least one warp instruction per warp.
  EXPECT_GE(f.warp_instructions, 8u * 4u);
  // Round robin spreads the 8 CTAs over both SMs.
  EXPECT_GT(p->sm(0).stats().ctas_completed, 0u);
  EXPECT_GT(p->sm(1).stats().ctas_completed, 0u);
  EXPECT_EQ(p->sm(0).stats().ctas_completed + p->sm(1).stats().ctas_completed, 8u);
  // The machinery's statistics (named after the module) and the builder's.
  const stats::Values total = p->recorder().total();
  EXPECT_EQ(p->registry().value("tiny.ctas", total), 8.0);
  EXPECT_EQ(p->registry().value("tiny.launches", total), 1.0);
  EXPECT_GT(p->registry().value("tiny.dram.reads", total), 0.0);
  EXPECT_EQ(p->registry().value("tiny.sm[0].ctas_completed", total) +
                p->registry().value("tiny.sm[1].ctas_completed", total),
            8.0);
  const std::string summary = p->total_summary();
  EXPECT_NE(summary.find("one DRAM channel"), std::string::npos) << summary;
  // A second launch on the same platform.
  const platforms::LaunchFigures g = run_vec_add(*p, 256, 64);
  EXPECT_EQ(g.ctas, 4u);
  EXPECT_EQ(p->registry().value("tiny.launches", p->recorder().total()), 2.0);
}

TEST(TestPlatform, PlacementPolicyPutsEveryCtaOnSmOne) {
  auto p = tiny();
  p->set_cta_placement(platforms::make_cta_placement("test_only_sm1"));
  const platforms::LaunchFigures f = run_vec_add(*p, 2048, 128);
  EXPECT_EQ(f.ctas, 16u);
  EXPECT_EQ(p->sm(0).stats().ctas_launched, 0u);
  EXPECT_EQ(p->sm(1).stats().ctas_launched, 16u);
  EXPECT_EQ(p->sm(0).stats().warp_instructions, 0u);
  const stats::Values total = p->recorder().total();
  EXPECT_EQ(p->registry().value("tiny.occupancy.max_ctas_per_sm", total),
            p->registry().value("tiny.sm[1].launch_max_resident_ctas", total));
  EXPECT_EQ(p->registry().value("tiny.sm[0].launch_max_resident_ctas", total), 0.0);
}

TEST(TestPlatform, APlacementCannotOverfillAnSm) {
  auto p = tiny();
  p->set_cta_placement(std::make_unique<Overfill>());
  try {
    // 64 CTAs of 128 threads: SM 0 holds at most 8 (gpu.sm.max_ctas).
    run_vec_add(*p, 64 * 128, 128);
    ADD_FAILURE() << "the launch ended without an error";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Internal) << e.what();
    EXPECT_NE(std::string(e.what()).find("cannot admit"), std::string::npos) << e.what();
  }
  EXPECT_LE(p->sm(0).stats().ctas_launched, 8u);
}

TEST(TestPlatform, RoundRobinIsTheDefaultAndRegistered) {
  const std::vector<std::string> names = platforms::cta_placement_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "round_robin"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "test_only_sm1"), names.end());
  try {
    platforms::make_cta_placement("nearest");
    ADD_FAILURE() << "an unknown placement was built";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("round_robin"), std::string::npos) << e.what();
  }
}

TEST(TestPlatform, EveryConfigurablePlacementIsRegistered) {
  const ConfigKey* key = find_config_key("gpu.cta_placement");
  ASSERT_NE(key, nullptr);
  for (const std::string& name : key->allowed) EXPECT_NO_THROW(platforms::make_cta_placement(name)) << name;
}

TEST(TestPlatform, BuildersAreChosenByName) {
  const std::vector<std::string> names = platforms::platform_names();
  EXPECT_NE(std::find(names.begin(), names.end(), "gpu"), names.end());
  EXPECT_NE(std::find(names.begin(), names.end(), "test_tiny"), names.end());
  Config cfg;
  try {
    platforms::make_platform("no_such_platform", "nsp", cfg);
    ADD_FAILURE() << "a platform without a builder was built";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    EXPECT_NE(std::string(e.what()).find("sim.platform"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("not built yet"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace simtlm::test
