// libor: Monte Carlo valuation of a portfolio of swaptions under a LIBOR
// market model (one path per thread).
//
// A path evolves NN forward rates L[0..NN-1] (tenor DELTA years) over NMAT
// time steps with one normal increment z per step (the model's single
// factor): at step n the rates that have not yet fixed, i = n+1..NN-1, move
// by the log-normal drift-corrected update
//   v    += DELTA*lam_i * L_i / (1 + DELTA*L_i)           (running drift)
//   L_i  *= exp(DELTA*lam_i * v + lam_i * (sqrt(DELTA)*z_n - DELTA*lam_i/2))
// with the volatility lam depending on the time to fixing, tau = i - n - 1:
// lam = 0.22 - 0.005 tau (a declining term structure). At maturity NMAT, each swaption k (strike
// swap rate, length tenor[k] periods) pays 100 * max(0, 1 - B - K * S), where
// B is the discount factor to the swap's end and S the annuity sum of
// DELTA * discount factors, all from the simulated rates; the portfolio value
// is discounted back to time 0 through the first NMAT rates.
//
// NN, NMAT and the number of swaptions are compile-time constants and every
// loop is unrolled, so the whole rate vector, the discount factors and the
// annuity of a path live in registers: the kernel's many simultaneously
// live values are what make it register-limited.
#define NN 16
#define NMAT 8
#define NOPT 6
#define DELTA 0.25f
#define SQRT_DELTA 0.5f

#define VOL(tau) (0.22f - 0.005f * (float)(tau))
// Swaption k: swap length TENOR(k) = k + 2 periods (2..7 <= NN - NMAT), strike
// STRIKE(k) between 4.5% and 5.5%.
#define TENOR(k) ((k) + 2)
#define STRIKE(k) (0.045f + 0.002f * (float)(k))

extern "C" __global__ void libor_path(const float* __restrict__ z, const float* __restrict__ l0,
                                      float* __restrict__ value, int num_paths) {
  const int p = blockIdx.x * blockDim.x + threadIdx.x;
  if (p >= num_paths) return;

  float L[NN];
#pragma unroll
  for (int i = 0; i < NN; ++i) L[i] = l0[i];

#pragma unroll
  for (int n = 0; n < NMAT; ++n) {
    const float sqez = SQRT_DELTA * z[n * num_paths + p];
    float v = 0.f;
#pragma unroll
    for (int i = n + 1; i < NN; ++i) {
      const float lam = VOL(i - n - 1);  // a compile-time constant once unrolled
      const float con1 = DELTA * lam;
      v += con1 * L[i] / (1.f + DELTA * L[i]);
      L[i] *= expf(con1 * v + lam * (sqez - 0.5f * con1));
    }
  }

  // Walk the discount factor b and annuity s from the swaptions' maturity
  // onwards; swaption k is settled when the walk reaches its last period.
  float b = 1.f, s = 0.f, v = 0.f;
#pragma unroll
  for (int j = 0; j < NN - NMAT; ++j) {
    b = b / (1.f + DELTA * L[NMAT + j]);
    s += DELTA * b;
#pragma unroll
    for (int k = 0; k < NOPT; ++k) {
      if (TENOR(k) == j + 1) {
        const float swapval = b + STRIKE(k) * s - 1.f;
        if (swapval < 0.f) v += -100.f * swapval;
      }
    }
  }
#pragma unroll
  for (int i = 0; i < NMAT; ++i) v = v / (1.f + DELTA * L[i]);
  value[p] = v;
}
