// libFuzzer entry for one harness, chosen at compile time by
// SIMTLM_FUZZ_TARGET (ptx_input, config_input or launch_spec_input; see
// testbenches/fuzz/fuzz_targets.h). Built only with -DSIMTLM_FUZZ=ON.
#include <cstddef>
#include <cstdint>

#include "testbenches/fuzz/fuzz_targets.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  simtlm::fuzz::SIMTLM_FUZZ_TARGET(data, size);
  return 0;
}

// libsystemc.so, linked through the model libraries, refers to sc_main; the
// harnesses never start a simulation (libFuzzer provides main).
extern "C" int sc_main(int, char**) { return 0; }
