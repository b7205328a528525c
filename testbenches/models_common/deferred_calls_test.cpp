// DeferredCalls: a call deferred in delta cycle d runs in delta d + 1 at the
// same simulation time, in the order deferred; calls deferred while the queue
// runs go to the delta after that, as a zero-delay peq_with_cb_and_phase
// would deliver them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>

#include "models/common/deferred_calls.h"

namespace simtlm::models {
namespace {

struct Seen {
  std::string what;
  sc_core::sc_time time;
  uint64_t delta;
};

struct Recorder {
  std::vector<Seen> seen;
  tlm::tlm_generic_payload trans;
  bool chain = false;  // the first call defers one more

  static void call(void* self, tlm::tlm_generic_payload& t, tlm::tlm_phase phase) {
    auto* r = static_cast<Recorder*>(self);
    EXPECT_EQ(&t, &r->trans);
    r->seen.push_back({phase.get_name(), sc_core::sc_time_stamp(), sc_core::sc_delta_count()});
    if (r->chain) {
      r->chain = false;
      DeferredCalls::instance().defer(&Recorder::call, self, t, tlm::END_RESP);
    }
  }
};

SC_MODULE(Deferrer) {
  Recorder* rec = nullptr;
  uint64_t deferred_in = 0;
  SC_CTOR(Deferrer) { SC_THREAD(run); }
  void run() {
    wait(sc_core::sc_time(5, sc_core::SC_NS));
    deferred_in = sc_core::sc_delta_count();
    rec->chain = true;
    DeferredCalls::instance().defer(&Recorder::call, rec, rec->trans, tlm::END_REQ);
    DeferredCalls::instance().defer(&Recorder::call, rec, rec->trans, tlm::BEGIN_RESP);
  }
};

TEST(DeferredCalls, RunInTheNextDeltaInOrderAndChainsToTheDeltaAfter) {
  Recorder rec;
  Deferrer d("deferrer");
  d.rec = &rec;
  sc_core::sc_start(sc_core::sc_time(10, sc_core::SC_NS));
  ASSERT_EQ(rec.seen.size(), 3u);
  EXPECT_EQ(rec.seen[0].what, "END_REQ");
  EXPECT_EQ(rec.seen[1].what, "BEGIN_RESP");
  EXPECT_EQ(rec.seen[2].what, "END_RESP");
  for (const Seen& s : rec.seen) EXPECT_EQ(s.time, sc_core::sc_time(5, sc_core::SC_NS));
  EXPECT_EQ(rec.seen[0].delta, d.deferred_in + 1);
  EXPECT_EQ(rec.seen[1].delta, d.deferred_in + 1);
  EXPECT_EQ(rec.seen[2].delta, d.deferred_in + 2);
}

}  // namespace
}  // namespace simtlm::models
