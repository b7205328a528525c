// The payload pool: ownership is per pool (a cache tells its own fills from
// requesters' payloads it forwards), payloads are recycled after release,
// and a recycled payload comes back with a default MemExtension.
#include <gtest/gtest.h>

#include "models/common/payload_pool.h"

namespace simtlm::models {
namespace {

TEST(PayloadPool, OwnsOnlyItsOwnPayloads) {
  PayloadPool a, b;
  tlm::tlm_generic_payload* pa = a.allocate();
  tlm::tlm_generic_payload* pb = b.allocate();
  tlm::tlm_generic_payload plain;
  EXPECT_TRUE(a.owns(*pa));
  EXPECT_FALSE(a.owns(*pb));
  EXPECT_TRUE(b.owns(*pb));
  EXPECT_FALSE(a.owns(plain));
  EXPECT_FALSE(b.owns(plain));
}

TEST(PayloadPool, ReleasedPayloadsAreReusedWithAFreshExtension) {
  PayloadPool pool;
  tlm::tlm_generic_payload* t = pool.allocate();
  t->acquire();
  MemExtension* ext = t->get_extension<MemExtension>();
  ASSERT_NE(ext, nullptr);
  ext->sm_id = 7;
  EXPECT_EQ(pool.in_use(), 1u);
  t->release();
  EXPECT_EQ(pool.in_use(), 0u);
  tlm::tlm_generic_payload* again = pool.allocate();
  EXPECT_EQ(again, t);
  EXPECT_EQ(pool.created(), 1u);
  ASSERT_NE(again->get_extension<MemExtension>(), nullptr);
  EXPECT_EQ(again->get_extension<MemExtension>()->sm_id, MemExtension{}.sm_id);
}

}  // namespace
}  // namespace simtlm::models
