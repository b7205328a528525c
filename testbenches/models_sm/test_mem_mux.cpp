// MemMux under back-pressure: five initiators share one target that holds
// two requests at a time and answers them together. When a held request is
// finally accepted (deferred END_REQ) the target has room again, so the mux
// forwards the next waiting input and it is accepted on the return path
// (TLM_UPDATED, no further END_REQ comes back): the mux must go on with the
// inputs still waiting instead of waiting for an END_REQ that never comes.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "models/sm/mem_mux.h"
#include "testbenches/models_cache/tb_traffic.h"
#include "testbenches/models_sm/sm_harness.h"

namespace simtlm::models::test {
namespace {

TEST(MemMux, WaitingInputsGoOnWhenForwardsAreAcceptedOnTheReturnPath) {
  constexpr unsigned kInputs = 5;
  MemMux mux("mux", kInputs);
  MemTarget target("target", ns(1), /*latency=*/10, /*capacity=*/2);
  std::vector<std::unique_ptr<tb::TestInitiator>> inits;
  for (unsigned i = 0; i < kInputs; ++i) {
    inits.push_back(std::make_unique<tb::TestInitiator>(("init" + std::to_string(i)).c_str()));
    inits.back()->socket.bind(mux.target_socket(i));
    inits.back()->read(ns(0), 0x1000 * (i + 1), 32);
  }
  mux.initiator_socket().bind(target.socket);
  sc_core::sc_start(ns(500));
  for (unsigned i = 0; i < kInputs; ++i) {
    EXPECT_TRUE(inits[i]->all_responded()) << "initiator " << i;
  }
  EXPECT_EQ(target.seen.size(), kInputs);
  EXPECT_EQ(mux.requests_forwarded(), kInputs);
  EXPECT_GT(mux.requests_held(), 0u);  // the scenario did hold inputs in the mux
}

}  // namespace
}  // namespace simtlm::models::test
