// The real nvcc output the parser tests read (testbenches/data/nvcc/; each
// file's header says how it was made and what it exercises). The data name
// is also the file name the tests give the parser, so error messages and
// assertions name the file that holds the text.
#pragma once

#include "testbenches/common/test_data.h"

namespace nvcc_samples {

inline const char* const kBasicKernels = "nvcc/basic_kernels_sm75.ptx";
inline const char* const kRdcKernels = "nvcc/rdc_kernels_sm75.ptx";
inline const char* const kFastMath = "nvcc/fast_math_sm80.ptx";
inline const char* const kInitializers = "nvcc/initializers_lineinfo_sm75.ptx";
inline const char* const kDebugSwitch = "nvcc/debug_build_sm75.ptx";
inline const char* const kIndirectCalls = "nvcc/indirect_calls_sm75.ptx";
inline const char* const kExternCall = "nvcc/extern_call_sm75.ptx";
inline const char* const kWorkloadsSm80 = "nvcc/workloads_sm80.ptx";
inline const char* const kCacheOps = "nvcc/cache_operators_sm75.ptx";

}  // namespace nvcc_samples
