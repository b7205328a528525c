#include "testbenches/fuzz/fuzz_targets.h"

#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <new>

#include "apps/launch_spec.h"
#include "frontend/load.h"
#include "models/common/json_input.h"
#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm::fuzz {

namespace {

[[noreturn]] void defect(const char* target, const char* what, const char* message) {
  std::fprintf(stderr, "fuzz target %s: %s: %s\n", target, what, message);
  std::abort();
}

void load_ptx(const std::string& text) { frontend::load_ptx_text(text, "fuzz.ptx"); }

void load_config(const std::string& text) {
  Config config;
  config.load_string(text, "fuzz.json");
  config.validate();
}

void load_spec(const std::string& text) {
  // An empty directory that is never created: a spec naming an input file
  // gets the "cannot be read" error, nothing is written anywhere.
  static const std::filesystem::path dir = "/nonexistent-simtlm-fuzz-dir";
  const nlohmann::json j = parse_json_input(text, "fuzz.json", ErrorKind::Input);
  cli::parse_launch_spec(j, "fuzz.json", dir);
}

std::string text_of(const uint8_t* data, size_t size) {
  return std::string(reinterpret_cast<const char*>(data), size);
}

}  // namespace

void expect_clean_outcome(const char* target, void (*body)(const std::string&), const std::string& input) {
  try {
    body(input);
  } catch (const Error& e) {
    if (e.kind() == ErrorKind::Internal) defect(target, "internal error", e.what());
  } catch (const std::bad_alloc&) {
    defect(target, "out of memory (std::bad_alloc)", "");
  } catch (const std::exception& e) {
    defect(target, "unexpected exception", e.what());
  }
}

void ptx_input(const uint8_t* data, size_t size) { expect_clean_outcome("ptx", load_ptx, text_of(data, size)); }

void config_input(const uint8_t* data, size_t size) {
  expect_clean_outcome("config", load_config, text_of(data, size));
}

void launch_spec_input(const uint8_t* data, size_t size) {
  expect_clean_outcome("launch_spec", load_spec, text_of(data, size));
}

}  // namespace simtlm::fuzz
