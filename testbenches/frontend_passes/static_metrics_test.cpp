// AD_int and CI_pred (frontend/passes/static_metrics.h; seed note 001 §1.7,
// §1.8, §6 item 16 for the static side of Fig. 4).
#include <gtest/gtest.h>

#include <string>

#include "frontend/load.h"
#include "frontend/passes/pipeline.h"
#include "frontend/passes/static_metrics.h"
#include "frontend/passes/unified_alloc.h"
#include "testbenches/common/test_data.h"

namespace simtlm::frontend::passes {
namespace {

// Fig. 4: every instruction has a 3-cycle latency and one issues per cycle.
TEST(StaticMetrics, Figure4DependentChainsDispatchEveryThirdCycleIndependentOnesEveryCycle) {
  // Scenario A: inst2 depends on inst1 (and inst3 on inst2).
  const std::vector<SchedNode> chain = {{3, {}, {}}, {3, {0}, {}}, {3, {1}, {}}};
  EXPECT_EQ(list_schedule(chain), std::vector<uint32_t>({0, 3, 6}));
  // Scenario B: independent instructions.
  const std::vector<SchedNode> independent = {{3, {}, {}}, {3, {}, {}}, {3, {}, {}}};
  EXPECT_EQ(list_schedule(independent), std::vector<uint32_t>({0, 1, 2}));
  // An independent instruction fills a stall of the chain.
  const std::vector<SchedNode> mixed = {{3, {}, {}}, {3, {0}, {}}, {3, {}, {}}};
  EXPECT_EQ(list_schedule(mixed), std::vector<uint32_t>({0, 3, 1}));
}

TEST(StaticMetrics, AverageDispatchIntervalOfABlock) {
  const char* ptx = R"(.version 7.0
.target sm_75
.address_size 64
.visible .entry k()
{
	.reg .b32 %r<5>;
	mov.u32 %r1, %tid.x;
	add.u32 %r2, %r1, 1;
	add.u32 %r3, %r2, 1;
	mov.u32 %r4, %tid.y;
	ret;
}
)";
  auto m = load_ptx_text(ptx, "k.ptx");
  LatencyModel l;
  l.alu = 3;
  // mov %r1 at 0, mov %r4 fills cycle 1, the adds at 3 and 6, ret at 7:
  // 7 cycles over 4 adjacent pairs.
  EXPECT_DOUBLE_EQ(average_dispatch_interval(m->functions.at(0), l), 7.0 / 4.0);
}

TEST(StaticMetrics, SpillsToLocalMemoryAreOffChipInstructions) {
  const std::string text = test_data::ptx("kernels/register_pressure.ptx");
  auto plain = load_ptx_text(text, "pressure.ptx");
  PassOptions o("test");
  o.enable(kUnifiedAllocPass, true);
  o.set(kUnifiedAllocPass, "registers", "12");
  auto spilled = load_ptx_text(text, "pressure.ptx", PassPipeline(PassRegistry::global(), o));
  const InstructionMix a = instruction_mix(*plain->find_kernel("pressure"));
  const InstructionMix b = instruction_mix(*spilled->find_kernel("pressure"));
  EXPECT_EQ(a.memory, 13u);  // twelve global loads and one store (ld.param is not off-chip)
  EXPECT_EQ(b.compute, a.compute);
  const ir::Function& k = *spilled->find_kernel("pressure");
  uint32_t local = 0;
  for (const ir::Instruction& i : k.insts) local += i.space == ir::StateSpace::Local ? 1 : 0;
  EXPECT_EQ(b.memory, a.memory + local);
  EXPECT_GT(local, 0u);
}

TEST(StaticMetrics, ComputationInterleavingPredicate) {
  EXPECT_TRUE(computation_interleaving({1000, 10}, 3.0));   // 300 > 200
  EXPECT_FALSE(computation_interleaving({1000, 15}, 3.0));  // 200 is not more than 200
  EXPECT_FALSE(computation_interleaving({1000, 20}, 3.0));  // 150
  EXPECT_TRUE(computation_interleaving({5, 0}, 1.0));       // no off-chip instruction
  EXPECT_TRUE(computation_interleaving({1000, 20}, 3.0, 100.0));
}

}  // namespace
}  // namespace simtlm::frontend::passes
