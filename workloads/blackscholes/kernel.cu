// blackscholes: European call and put prices under the Black-Scholes model,
// one thread per option (128 threads per CTA), in float:
//   d1 = (ln(S/X) + (r + v^2/2) T) / (v sqrt(T)),  d2 = d1 - v sqrt(T),
//   call = S N(d1) - X e^{-rT} N(d2),  put = X e^{-rT} N(-d2) - S N(-d1),
// with the standard normal CDF N from the 5-term polynomial of Abramowitz and
// Stegun (26.2.17, absolute error < 7.5e-8), N(-x) = 1 - N(x).
__device__ __forceinline__ float normal_cdf(float x) {
  const float ax = fabsf(x);
  const float k = 1.0f / (1.0f + 0.2316419f * ax);
  const float poly =
      k * (0.319381530f + k * (-0.356563782f + k * (1.781477937f + k * (-1.821255978f + k * 1.330274429f))));
  const float tail = 0.39894228040143267794f * expf(-0.5f * ax * ax) * poly;  // 1 - N(|x|)
  return x > 0.f ? 1.0f - tail : tail;
}

extern "C" __global__ void blackscholes(const float* __restrict__ spot,
                                        const float* __restrict__ strike,
                                        const float* __restrict__ years, float* __restrict__ call,
                                        float* __restrict__ put, int n, float rate,
                                        float volatility) {
  const int o = blockIdx.x * blockDim.x + threadIdx.x;
  if (o >= n) return;
  const float S = spot[o], X = strike[o], T = years[o];
  const float v_sqrt_t = volatility * sqrtf(T);
  const float d1 = (logf(S / X) + (rate + 0.5f * volatility * volatility) * T) / v_sqrt_t;
  const float d2 = d1 - v_sqrt_t;
  const float n1 = normal_cdf(d1), n2 = normal_cdf(d2);
  const float discounted = X * expf(-rate * T);
  call[o] = S * n1 - discounted * n2;
  put[o] = discounted * (1.0f - n2) - S * (1.0f - n1);
}
