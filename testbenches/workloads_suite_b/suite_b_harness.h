// The suite_b workload tests use the shared workload-suite helpers.
#pragma once

#include "testbenches/common/workload_suite_harness.h"

namespace simtlm::workloads::suite_b {
using namespace simtlm::workloads::suite;  // NOLINT(google-build-using-namespace)
}  // namespace simtlm::workloads::suite_b
