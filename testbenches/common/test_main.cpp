// Entry point of every test binary. SystemC owns main() (libsystemc calls
// sc_main), so GoogleTest is started from here instead of gtest_main.
// SystemC warnings and errors raised during a test are turned into failures.
#include <gtest/gtest.h>

#include <systemc>

namespace {
void fail_on_report(const sc_core::sc_report& report, const sc_core::sc_actions& actions) {
  if (report.get_severity() >= sc_core::SC_WARNING) {
    ADD_FAILURE() << "SystemC " << (report.get_severity() == sc_core::SC_WARNING ? "warning" : "error")
                  << ": " << report.get_msg_type() << ": " << report.get_msg();
  }
  sc_core::sc_report_handler::default_handler(report, actions & ~sc_core::SC_STOP & ~sc_core::SC_ABORT);
}
}  // namespace

int sc_main(int argc, char* argv[]) {
  ::testing::InitGoogleTest(&argc, argv);
  sc_core::sc_report_handler::set_handler(fail_on_report);
  return RUN_ALL_TESTS();
}
