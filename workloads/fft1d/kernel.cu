// fft1d: one radix-2 stage of a batched complex 1-D FFT of length N = 2^log2n
// in the Stockham (self-sorting) formulation: each stage reads one buffer and
// writes the other, and after log2n stages the transform is in natural order
// with no bit-reversal pass.
//
// Stage s combines pairs of length-2^s transforms into length-2^(s+1) ones.
// Butterfly j (0 <= j < N/2) of a batch takes the elements j and j + N/2 of
// the stage input; with span = 2^s and k = j mod span (its frequency within
// the sub-transform) it multiplies the second by w = exp(-2 pi i k / (2 span))
// and writes the sum and difference to positions 2 (j - k) + k and
// 2 (j - k) + k + span of the stage output. The twiddles come from a table of
// exp(-2 pi i m / N), m < N/2, in global memory: w = table[k * N / (2 span)].
//
// One thread per butterfly, batch-major (thread g: batch g / (N/2), butterfly
// g mod (N/2)). Every thread runs the same straight-line code; the driver
// launches exactly total / blockDim threads-worth of CTAs, so the bounds test
// never splits a warp.
extern "C" __global__ void fft_radix2_stage(const float2* __restrict__ src,
                                            float2* __restrict__ dst,
                                            const float2* __restrict__ twiddle, int log2n,
                                            int stage, unsigned total) {
  const unsigned g = blockIdx.x * blockDim.x + threadIdx.x;
  if (g >= total) return;
  const unsigned half_log = (unsigned)log2n - 1;
  const unsigned half = 1u << half_log;
  const unsigned j = g & (half - 1);
  const unsigned base = (g >> half_log) << log2n;
  const unsigned span = 1u << stage;
  const unsigned k = j & (span - 1);

  const float2 a = src[base + j];
  const float2 b = src[base + j + half];
  const float2 w = twiddle[k << (half_log - stage)];
  const float tr = w.x * b.x - w.y * b.y;
  const float ti = w.x * b.y + w.y * b.x;

  const unsigned out = base + ((j - k) << 1) + k;
  dst[out] = make_float2(a.x + tr, a.y + ti);
  dst[out + span] = make_float2(a.x - tr, a.y - ti);
}
