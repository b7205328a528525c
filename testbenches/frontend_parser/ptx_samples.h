// Real nvcc PTX samples used by the parser tests (see ptx_samples.cpp).
#pragma once

namespace ptx_samples {

extern const char* const kBasicKernels;  // k1.ptx
extern const char* const kRdcKernels;  // k2.ptx
extern const char* const kFastMath;  // k4.ptx
extern const char* const kInitializers;  // k5.ptx
extern const char* const kDebugSwitch;  // k3g.ptx
extern const char* const kIndirectCalls;  // k6.ptx
extern const char* const kExternCall;  // k2e.ptx
extern const char* const kWorkloadsSm80;  // w80.ptx
extern const char* const kCacheOps;  // cop.ptx

}  // namespace ptx_samples
