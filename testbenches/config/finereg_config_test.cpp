// FineReg's configuration rules (models/common/config_validate.cpp): the
// split must add up to the register file, its keys need the policy, and the
// combinations not built are refused, each error naming the keys.
#include <gtest/gtest.h>

#include <string>

#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm {
namespace {

std::string error_of(Config c, const std::vector<std::string>& overrides) {
  try {
    for (const std::string& o : overrides) c.apply_override(o);
    c.validate();
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Config);
    return e.what();
  }
  return "";
}

TEST(FineRegConfig, PresetLoadsWithFineRegOn) {
  Config c = Config::preset("gtx980_finereg");
  c.validate();
  EXPECT_EQ(c.str("gpu.sm.regfile.alloc_policy"), "finereg");
  EXPECT_EQ(c.u64("gpu.sm.regfile.finereg.acrf_bytes") + c.u64("gpu.sm.regfile.finereg.pcrf_bytes"),
            4 * c.u64("gpu.sm.registers"));
  EXPECT_EQ(c.u64("gpu.num_sms"), 16u);  // Table I
  EXPECT_EQ(c.u64("gpu.sm.max_ctas"), 32u);
  EXPECT_EQ(c.u64("gpu.sm.max_threads"), 2048u);
  EXPECT_EQ(c.u64("gpu.sm.shared_memory_bytes"), 96u * 1024);
  EXPECT_EQ(c.u64("gpu.l1d.sets") * c.u64("gpu.l1d.ways") * c.u64("gpu.l1d.line_bytes"), 48u * 1024);
  EXPECT_EQ(c.u64("gpu.l2.sets") * c.u64("gpu.l2.ways") * c.u64("gpu.l2.line_bytes") * c.u64("gpu.dram.channels") *
                c.u64("gpu.l2.sub_partitions_per_channel"),
            2048u * 1024);
  // 352.5 GB/s: channels x chips x bus width x transfers per clock x clock.
  const double gbs = c.u64("gpu.dram.channels") * c.u64("gpu.dram.chips_per_channel") *
                     c.u64("gpu.dram.bus_width_bytes") * c.u64("gpu.dram.data_rate") * c.f64("gpu.clocks.dram_mhz") /
                     1000.0;
  EXPECT_NEAR(gbs, 352.5, 0.01);
}

TEST(FineRegConfig, TheSplitMustAddUpToTheRegisterFile) {
  const std::string m = error_of(Config::preset("gtx980_finereg"), {"gpu.sm.regfile.finereg.acrf_bytes=65536"});
  EXPECT_NE(m.find("gpu.sm.regfile.finereg.acrf_bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("gpu.sm.regfile.finereg.pcrf_bytes"), std::string::npos) << m;
  EXPECT_NE(m.find("gpu.sm.registers"), std::string::npos) << m;
  EXPECT_EQ(error_of(Config::preset("gtx980_finereg"),
                     {"gpu.sm.regfile.finereg.acrf_bytes=65536", "gpu.sm.regfile.finereg.pcrf_bytes=196608"}),
            "");
}

TEST(FineRegConfig, ItsKeysNeedThePolicy) {
  const std::string m = error_of(Config(), {"gpu.sm.regfile.finereg.check=true"});
  EXPECT_NE(m.find("gpu.sm.regfile.finereg.check"), std::string::npos) << m;
  EXPECT_NE(m.find("gpu.sm.regfile.alloc_policy"), std::string::npos) << m;
}

TEST(FineRegConfig, CombinationsNotBuiltAreRefused) {
  EXPECT_NE(error_of(Config::preset("gtx980_finereg"), {"gpu.sm.regfile.power.policy=greener"})
                .find("gpu.sm.regfile.power.policy"),
            std::string::npos);
  EXPECT_NE(error_of(Config::preset("gtx980_finereg"), {"gpu.sm.smem.alloc_policy=sharing"})
                .find("gpu.sm.smem.alloc_policy"),
            std::string::npos);
  EXPECT_NE(error_of(Config::preset("gtx980_finereg"), {"gpu.sm.regfile.finereg.max_resident_ctas=16"})
                .find("max_resident_ctas"),
            std::string::npos);
  EXPECT_NE(error_of(Config::preset("gtx980_finereg"), {"gpu.sm.regfile.finereg.vector_cache_entries=24"})
                .find("vector_cache_entries"),
            std::string::npos);
}

TEST(FineRegConfig, ComparisonPoliciesTakeTheirOwnKeysOnly) {
  // vt and regdram keep the resident limits; FineReg's split means nothing to them.
  EXPECT_EQ(error_of(Config::preset("gtx980_finereg"),
                     {"gpu.sm.regfile.alloc_policy=vt", "gpu.sm.regfile.vt.context_bytes_per_warp=256",
                      "gpu.sm.regfile.finereg.max_resident_ctas=64"}),
            "");
  EXPECT_EQ(error_of(Config::preset("gtx980_finereg"),
                     {"gpu.sm.regfile.alloc_policy=regdram", "gpu.sm.regfile.regdram.max_offchip_ctas=4",
                      "gpu.sm.regfile.finereg.check=true"}),
            "");
  std::string m = error_of(Config::preset("gtx980_finereg"),
                           {"gpu.sm.regfile.alloc_policy=vt", "gpu.sm.regfile.finereg.acrf_bytes=65536"});
  EXPECT_NE(m.find("gpu.sm.regfile.finereg.acrf_bytes"), std::string::npos) << m;
  m = error_of(Config::preset("gtx980_finereg"),
               {"gpu.sm.regfile.alloc_policy=vt", "gpu.sm.regfile.regdram.max_offchip_ctas=4"});
  EXPECT_NE(m.find("gpu.sm.regfile.regdram.max_offchip_ctas"), std::string::npos) << m;
  EXPECT_NE(m.find("regdram"), std::string::npos) << m;
  m = error_of(Config(), {"gpu.sm.regfile.vt.context_bytes_per_cycle=64"});
  EXPECT_NE(m.find("gpu.sm.regfile.vt.context_bytes_per_cycle"), std::string::npos) << m;
  EXPECT_NE(m.find("gpu.sm.regfile.alloc_policy"), std::string::npos) << m;
  m = error_of(Config::preset("gtx980_finereg"),
               {"gpu.sm.regfile.alloc_policy=regdram", "gpu.sm.regfile.power.policy=greener"});
  EXPECT_NE(m.find("gpu.sm.regfile.power.policy"), std::string::npos) << m;
}

}  // namespace
}  // namespace simtlm
