// The AT ports are their sockets' transport interfaces: sockets of other
// TLM-2.0 models (here the library's simple sockets, as a virtual platform's
// initiator or memory would use) bind to them and run the base protocol, and
// the calls outside the AT model (DMI, debug transport) answer "nothing".
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <systemc>
#include <tlm>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "models/common/at_initiator_port.h"
#include "models/common/at_target_port.h"

namespace simtlm::models {
namespace {

using sc_core::SC_NS;
using sc_core::sc_time;

struct PhaseSeen {
  std::string phase;
  sc_time at;
};

// A target built on AtTargetPort: takes every request, answers it 2 ns later.
SC_MODULE(PortTarget), private AtTargetPort::Listener {
  AtTargetPort port;
  std::vector<sc_time> requests;
  std::vector<sc_time> responses_done;
  tlm::tlm_generic_payload* to_answer = nullptr;
  sc_core::sc_event answer;

  SC_CTOR(PortTarget) : port("socket", static_cast<AtTargetPort::Listener&>(*this)) {
    SC_METHOD(respond);
    sensitive << answer;
    dont_initialize();
  }
  bool on_request(unsigned, tlm::tlm_generic_payload& trans) override {
    requests.push_back(sc_core::sc_time_stamp());
    to_answer = &trans;
    answer.notify(sc_time(2, SC_NS));
    return true;
  }
  void on_response_done(unsigned, tlm::tlm_generic_payload&) override {
    responses_done.push_back(sc_core::sc_time_stamp());
  }
  void respond() { port.send_response(*to_answer); }
};

// A foreign initiator on a simple_initiator_socket.
SC_MODULE(ForeignInitiator) {
  tlm_utils::simple_initiator_socket<ForeignInitiator> socket;
  tlm::tlm_generic_payload trans;
  tlm::tlm_sync_enum request_status = tlm::TLM_ACCEPTED;
  std::string request_phase;
  bool dmi_granted = true;
  unsigned debug_bytes = 99;
  std::vector<PhaseSeen> backward;

  SC_CTOR(ForeignInitiator) : socket("socket") {
    socket.register_nb_transport_bw(this, &ForeignInitiator::nb_transport_bw);
    SC_THREAD(run);
  }
  void run() {
    wait(sc_time(1, SC_NS));
    trans.set_command(tlm::TLM_READ_COMMAND);
    trans.set_address(0x80);
    tlm::tlm_phase phase = tlm::BEGIN_REQ;
    sc_time delay = sc_core::SC_ZERO_TIME;
    request_status = socket->nb_transport_fw(trans, phase, delay);
    request_phase = phase.get_name();
    tlm::tlm_dmi dmi;
    dmi_granted = socket->get_direct_mem_ptr(trans, dmi);
    debug_bytes = socket->transport_dbg(trans);
  }
  tlm::tlm_sync_enum nb_transport_bw(tlm::tlm_generic_payload&, tlm::tlm_phase& phase, sc_time&) {
    backward.push_back({phase.get_name(), sc_core::sc_time_stamp()});
    phase = tlm::END_RESP;
    return tlm::TLM_COMPLETED;
  }
};

TEST(AtPorts, ForeignInitiatorRunsTheProtocolWithATargetPort) {
  ForeignInitiator init("init");
  PortTarget target("target");
  init.socket.bind(target.port.socket);
  sc_core::sc_start(sc_time(10, SC_NS));

  ASSERT_EQ(target.requests.size(), 1u);
  EXPECT_EQ(target.requests[0], sc_time(1, SC_NS));
  // Taken at once: END_REQ on the return path.
  EXPECT_EQ(init.request_status, tlm::TLM_UPDATED);
  EXPECT_EQ(init.request_phase, "END_REQ");
  EXPECT_FALSE(init.dmi_granted);
  EXPECT_EQ(init.debug_bytes, 0u);
  ASSERT_EQ(init.backward.size(), 1u);
  EXPECT_EQ(init.backward[0].phase, "BEGIN_RESP");
  EXPECT_EQ(init.backward[0].at, sc_time(3, SC_NS));
  EXPECT_EQ(init.trans.get_response_status(), tlm::TLM_OK_RESPONSE);
  // Ended on the return path (TLM_COMPLETED): the port is free again, with
  // no END_RESP callback to the owner.
  EXPECT_TRUE(target.port.response_ready());
  EXPECT_TRUE(target.responses_done.empty());
}

// An initiator built on AtInitiatorPort: one request at 1 ns.
SC_MODULE(PortInitiator), private AtInitiatorPort::Listener {
  AtInitiatorPort port;
  tlm::tlm_generic_payload trans;
  std::vector<sc_time> accepted;
  std::vector<sc_time> responses;

  SC_CTOR(PortInitiator) : port("socket", static_cast<AtInitiatorPort::Listener&>(*this)) { SC_THREAD(run); }
  void run() {
    wait(sc_time(1, SC_NS));
    trans.set_command(tlm::TLM_WRITE_COMMAND);
    trans.set_address(0x100);
    port.send_request(trans);
  }
  void on_request_accepted(unsigned, tlm::tlm_generic_payload&) override {
    accepted.push_back(sc_core::sc_time_stamp());
  }
  bool on_response(unsigned, tlm::tlm_generic_payload&) override {
    responses.push_back(sc_core::sc_time_stamp());
    return true;
  }
};

// A foreign target on a simple_target_socket: accepts the request, answers
// with a BEGIN_RESP annotated 3 ns, and invalidates DMI on the way.
SC_MODULE(ForeignTarget) {
  tlm_utils::simple_target_socket<ForeignTarget> socket;
  tlm::tlm_generic_payload* pending = nullptr;
  sc_core::sc_event answer;
  std::vector<PhaseSeen> forward;

  SC_CTOR(ForeignTarget) : socket("socket") {
    socket.register_nb_transport_fw(this, &ForeignTarget::nb_transport_fw);
    SC_METHOD(respond);
    sensitive << answer;
    dont_initialize();
  }
  tlm::tlm_sync_enum nb_transport_fw(tlm::tlm_generic_payload& trans, tlm::tlm_phase& phase, sc_time&) {
    forward.push_back({phase.get_name(), sc_core::sc_time_stamp()});
    if (phase == tlm::BEGIN_REQ) {
      pending = &trans;
      answer.notify(sc_time(1, SC_NS));
    }
    return tlm::TLM_ACCEPTED;
  }
  void respond() {
    socket->invalidate_direct_mem_ptr(0, ~sc_dt::uint64(0));
    tlm::tlm_phase phase = tlm::BEGIN_RESP;
    sc_time delay(3, SC_NS);
    pending->set_response_status(tlm::TLM_OK_RESPONSE);
    socket->nb_transport_bw(*pending, phase, delay);
  }
};

TEST(AtPorts, ForeignTargetAnswersAnInitiatorPortWithATimedResponse) {
  PortInitiator init("init");
  ForeignTarget target("target");
  init.port.socket.bind(target.socket);
  sc_core::sc_start(sc_time(20, SC_NS));

  // BEGIN_REQ at 1 ns; BEGIN_RESP sent at 2 ns, annotated 3 ns: seen at 5 ns,
  // where it also implies END_REQ; END_RESP goes back at once.
  ASSERT_EQ(init.responses.size(), 1u);
  EXPECT_EQ(init.responses[0], sc_time(5, SC_NS));
  ASSERT_EQ(init.accepted.size(), 1u);
  EXPECT_EQ(init.accepted[0], sc_time(5, SC_NS));
  EXPECT_TRUE(init.port.request_ready());
  ASSERT_EQ(target.forward.size(), 2u);
  EXPECT_EQ(target.forward[0].phase, "BEGIN_REQ");
  EXPECT_EQ(target.forward[0].at, sc_time(1, SC_NS));
  EXPECT_EQ(target.forward[1].phase, "END_RESP");
  EXPECT_EQ(target.forward[1].at, sc_time(5, SC_NS));
}

}  // namespace
}  // namespace simtlm::models
