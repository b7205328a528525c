// The payload pool: ownership is per pool (a cache tells its own fills from
// requesters' payloads it forwards), payloads are recycled after release,
// a recycled payload comes back with a default MemExtension, and the
// extension lookup finds the same extension on pooled and plain payloads.
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

TEST(PayloadPool, ExtensionLookupAgreesWithTheLibraryOnEveryKindOfPayload) {
  PayloadPool pool;
  tlm::tlm_generic_payload* pooled = pool.allocate();
  EXPECT_EQ(find_mem_ext(*pooled), pooled->get_extension<MemExtension>());
  EXPECT_EQ(&mem_ext(*pooled, "test"), pooled->get_extension<MemExtension>());
  // A payload built elsewhere (a testbench's own) goes through the library.
  tlm::tlm_generic_payload plain;
  EXPECT_EQ(find_mem_ext(plain), nullptr);
  MemExtension own;
  plain.set_extension(&own);
  EXPECT_EQ(find_mem_ext(plain), &own);
  EXPECT_EQ(&mem_ext(plain, "test"), &own);
  plain.clear_extension(&own);
}

}  // namespace
}  // namespace simtlm::models
