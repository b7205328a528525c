// The suite_a workload tests use the shared workload-suite helpers.
#pragma once

#include "testbenches/common/workload_suite_harness.h"

namespace simtlm::workloads::suite_a {
using namespace simtlm::workloads::suite;  // NOLINT(google-build-using-namespace)
}  // namespace simtlm::workloads::suite_a
