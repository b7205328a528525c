// testbenches/data/nvcc/warp_size.cu: kernels that use CUDA's `warpSize`, which
// nvcc compiles to PTX's WARP_SZ. Compiled (not by the build) with
//   nvcc -arch=compute_75 -ptx -O3 warp_size.cu -o warp_size_sm75.ptx
// and the header comment of the PTX re-added. Used by
// testbenches/functional/test_warp_size.cpp.

// out[t] = warpSize for every thread t of the CTA.
extern "C" __global__ void warp_size_probe(unsigned* out) { out[threadIdx.x] = warpSize; }

// A reduction written for any warp size: each warp folds its values with
// shuffles whose offsets come from warpSize; lane 0 stores the warp's sum in
// out[threadIdx.x / warpSize].
extern "C" __global__ void warp_sums(const int* in, int* out) {
  int v = in[threadIdx.x];
  for (int offset = warpSize / 2; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
  if (threadIdx.x % warpSize == 0) out[threadIdx.x / warpSize] = v;
}
