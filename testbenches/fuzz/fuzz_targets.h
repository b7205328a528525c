// The fuzzing harnesses' entry points (docs/validation.md, "Fuzzing"). Each
// feeds one input to a loader the way the simtlm command does and accepts
// every outcome the command treats as a clean result: success, or a
// simtlm::Error of a user-facing kind (it exits 2 with a message). Anything
// else is a defect the fuzzer must report, so the harness aborts on it: an
// Error(Internal), any other exception (the CLI's "internal error", exit 4),
// and of course crashes, hangs and runaway memory, which the fuzzer sees itself.
//
// The same functions run under libFuzzer (testbenches/fuzz/libfuzzer/, built
// with -DSIMTLM_FUZZ=ON and clang) and in the ordinary test suite, which
// replays the seed corpora and every input in testbenches/fuzz_regressions/.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace simtlm::fuzz {

// PTX text -> parse, validate, inline, lay out, analyse (frontend::load_ptx_text).
void ptx_input(const uint8_t* data, size_t size);
// A configuration file's text applied on top of the defaults, then validated.
void config_input(const uint8_t* data, size_t size);
// A launch spec's text parsed as `simtlm ptx --launch` does (input files are
// looked up in an empty directory, so only their absence can be reported).
void launch_spec_input(const uint8_t* data, size_t size);

// Runs `body`; returns normally for success or a user-facing Error, aborts
// (after printing what happened) for anything else.
void expect_clean_outcome(const char* target, void (*body)(const std::string&), const std::string& input);

}  // namespace simtlm::fuzz
