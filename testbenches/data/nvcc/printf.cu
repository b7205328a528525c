// testbenches/data/nvcc/printf.cu: kernels that call printf (nvcc: vprintf).
// Compiled (not by the build) with
//   nvcc -arch=compute_75 -ptx -O3 printf.cu -o printf_sm75.ptx
// and the header comment of the PTX re-added. Used by
// testbenches/functional/test_printf.cpp and testbenches/cli/test_cli_printf.cpp.
#include <cstdio>

// Every thread prints one line; odd threads print a second line first
// (divergent printf), so the output order shows the documented sort.
extern "C" __global__ void print_ids(int tag) {
  const unsigned t = threadIdx.x;
  if (t & 1) printf("odd  %d/%u first\n", tag, t);
  printf("cta %u thread %u tag %d\n", blockIdx.x, t, tag);
}

// One thread prints every supported conversion.
extern "C" __global__ void print_conversions(const int* a, float f, double d, const char* s) {
  if (threadIdx.x != 0 || blockIdx.x != 0) return;
  const int v = a[0];
  printf("d=%d i=%i u=%u x=%x X=%X o=%o c=%c\n", v, -v, (unsigned)v, v, v, v, 'A' + (v & 15));
  printf("f=%f e=%e g=%g E=%E G=%G a=%a F=%F\n", f, d, d, d, d, f, f);
  printf("w=[%8.3f] [%-6d] [%06d] [%+d] [% d] [%#x] [%.2e] [%10s] [%-5s] [%.2s]\n", d, v, v, v, v, v, d, s, "ab",
         s);
  printf("ld=%ld lld=%lld lu=%lu llu=%llu hd=%hd hhx=%hhx\n", (long)v * -3000000000L, (long long)v * 4000000000LL,
         (unsigned long)v * 3000000000UL, ~0ULL, (short)v, (unsigned char)v);
  printf("star=[%*d] [%.*f] pct=%% p=%p s=%s\n", 6, v, 3, d, (const void*)a, s);
  printf("no arguments\n");
}

// A conversion that device printf does not have (%n) reaches the host.
extern "C" __global__ void print_unsupported(int* where) { printf("count%n\n", where); }

// Many lines from many threads (the printf buffer cap).
extern "C" __global__ void print_many(int lines) {
  for (int i = 0; i < lines; ++i) printf("cta %u thread %u line %d\n", blockIdx.x, threadIdx.x, i);
}

// The return value of printf (CUDA: the number of arguments) stored per thread.
extern "C" __global__ void print_result(int* out) {
  out[threadIdx.x] = printf("%d %d\n", (int)threadIdx.x, 2);
}
