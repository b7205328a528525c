// The spill-progress scoreboard of overlapped passes (invariant 12; note
// §1.7 [I]; docs/spu.md, "Overlapped passes"), on the shared VIU code
// (functional/spu/spu_passes.h) without a launch: a 2 x 1 grid on p = 1,
// whose east VIU of pass (0,0) spills into the channel the west VIU of pass
// (1,0) restores from. A restore waits until its spill has completed, ends
// once the channel is closed and used up, and without the scoreboard is an
// error naming both VIUs.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "functional/memory.h"
#include "functional/spu/spu_fabric.h"
#include "functional/spu/spu_passes.h"
#include "simtlm/error.h"

namespace simtlm::functional::spu {
namespace {

constexpr uint32_t kCb = 64;

// Units of a 1 x 1 fabric: SM 0, then IU north 1, west 2, south 3, east 4.
constexpr size_t kWest = 2, kEast = 4;

struct TwoPasses {
  GlobalMemory memory;
  SpillSlots slots{memory};
  PassPlan plan = PassPlan::of(1, 2, 1);
  Fabric producer{1, 1, kCb}, consumer{1, 1, kCb};
  VirtualIu spill, restore;

  TwoPasses() {
    for (Unit& u : producer.units()) place_unit(u, plan, 0, 0, 1, 1);
    for (Unit& u : consumer.units()) place_unit(u, plan, 1, 0, 1, 1);
    spill = make_virtual_iu(producer.units()[kEast], 0, 0, slots);
    restore = make_virtual_iu(consumer.units()[kWest], 1, 0, slots);
  }
  // The east VIU has received face `value` (its sync completed) and spills it.
  uint32_t spill_face(uint8_t value) {
    std::memset(producer.buffer(producer.units()[kEast], Dir::West), value, kCb);
    spill.started = true;
    return viu_move(spill, producer, slots);
  }
  uint8_t restored() { return consumer.buffer(consumer.units()[kWest], Dir::East)[kCb - 1]; }
};

TEST(SpuScoreboard, ARestoreWaitsForItsSpillToComplete) {
  TwoPasses t;
  ASSERT_TRUE(t.producer.units()[kEast].viu);
  ASSERT_TRUE(t.consumer.units()[kWest].viu);
  ASSERT_EQ(t.spill.channel, t.restore.channel) << "east spills of pass (0,0) feed the west VIU of pass (1,0)";
  // Before any spill: the restore waits (no data, nothing finished).
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), 0u);
  EXPECT_TRUE(t.restore.blocked);
  EXPECT_FALSE(t.consumer.units()[kWest].finished);
  // Spill 0 started but its data is not in memory yet: still waiting.
  EXPECT_EQ(t.spill_face(7), kCb);
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), 0u);
  EXPECT_TRUE(t.restore.blocked);
  EXPECT_EQ(t.restore.restores, 0u);
  // Spill 0 complete: restore 0 proceeds with its face.
  viu_spill_done(t.spill);
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), kCb);
  EXPECT_FALSE(t.restore.blocked);
  EXPECT_EQ(t.restored(), 7);
  // Released again (as viu_sync marks it): restore 1 waits for spill 1, not
  // for spill 0 again.
  t.restore.started = true;
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), 0u);
  EXPECT_TRUE(t.restore.blocked);
  EXPECT_EQ(t.spill_face(9), kCb);
  viu_spill_done(t.spill);
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), kCb);
  EXPECT_EQ(t.restored(), 9);
  EXPECT_EQ(t.restore.restores, 2u);
  // Restore 2: the producer ends after two spills (channel closed): the VIU ends.
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), 0u);
  EXPECT_TRUE(t.restore.blocked);
  t.spill.channel->closed = true;
  EXPECT_EQ(viu_move(t.restore, t.consumer, t.slots), 0u);
  EXPECT_TRUE(t.consumer.units()[kWest].finished);
}

TEST(SpuScoreboard, WithoutTheScoreboardARestoreBeforeItsSpillIsAnError) {
  TwoPasses t;
  EXPECT_EQ(t.spill_face(3), kCb);  // started, not complete
  try {
    viu_move(t.restore, t.consumer, t.slots, false);
    ADD_FAILURE() << "the restore went ahead";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::Fault);
    const std::string what = e.what();
    EXPECT_NE(what.find("VIU west 0 of pass (1,0) restores face 0 of row 0 before the east VIU of pass (0,0) has "
                        "spilled it (0 spills complete)"),
              std::string::npos)
        << what;
  }
}

}  // namespace
}  // namespace simtlm::functional::spu
