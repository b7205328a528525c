// The hook through which a block reports the part of its storage held in
// reduced-leakage states (drowsy or gated register subarrays for GREENER,
// FineReg's and the SPU's structures): the block calls set_fraction() whenever
// the fraction changes; the residency integrates fraction x time, and
// register_stats() puts that integral into the statistics tree, where the
// energy account (energy_account.h) finds it by name and charges the block's
// leakage as
//
//   E = P_leak x (T - (1 - reduced_ratio) x integral of fraction over T)
//
// per statistics window (a launch, the run, a power-trace interval).
//
//   LeakageResidency r(0.1);            // reduced storage leaks 10 % of full
//   r.register_stats(registry, "gpu", "regfile", sm_id);
//   r.set_fraction(0.5, now_seconds);   // half the storage drowsy from now on
//
// Times are seconds of simulated time (sc_time_stamp().to_seconds() in a
// module), so a block on any clock domain reports the same way. The block
// calls advance(now) where it brings its other time-dependent counters up to
// date (the platform's refresh_stats() before every statistics window is
// read), like its idle-cycle counters.
#pragma once

#include <algorithm>
#include <string>

#include "simtlm/error.h"
#include "simtlm/stats.h"

namespace simtlm::power {

class LeakageResidency {
 public:
  // `reduced_ratio`: leakage of reduced storage relative to full, in [0, 1].
  explicit LeakageResidency(double reduced_ratio) : ratio_(reduced_ratio) {
    if (!(reduced_ratio >= 0.0 && reduced_ratio <= 1.0)) {
      throw Error(ErrorKind::Internal, "LeakageResidency: reduced_ratio must be in [0, 1]");
    }
  }

  // From `now_s` on, `fraction` (in [0, 1]) of the block's storage is in
  // reduced-leakage states. Time never goes back.
  void set_fraction(double fraction, double now_s) {
    if (!(fraction >= 0.0 && fraction <= 1.0)) {
      throw Error(ErrorKind::Internal, "LeakageResidency: fraction must be in [0, 1]");
    }
    advance(now_s);
    fraction_ = fraction;
  }
  // Brings the integral up to `now_s` (before the statistics are read).
  void advance(double now_s) {
    if (now_s > last_s_) {
      reduced_seconds_ += fraction_ * (now_s - last_s_);
      last_s_ = now_s;
    }
  }
  double fraction() const { return fraction_; }
  double reduced_seconds() const { return reduced_seconds_; }
  double reduced_ratio() const { return ratio_; }

  // <top>.power.residency.<block>[<instance>].reduced_seconds (counter) and
  // .reduced_ratio (level): `block` is the leakage block kind the account
  // charges (a gpu.power.leakage_w.<block> key), `instance` which of them.
  void register_stats(stats::Registry& r, const std::string& top, const std::string& block,
                      unsigned instance) const {
    const std::string p = top + ".power.residency." + block + "[" + std::to_string(instance) + "].";
    r.scalar(p + "reduced_seconds", &reduced_seconds_, "s",
             "integral of the fraction of storage in reduced-leakage states over time");
    r.scalar(p + "reduced_ratio", &ratio_, "ratio", "leakage of reduced storage relative to full",
             stats::Kind::Level);
  }

 private:
  double ratio_;
  double fraction_ = 0.0;
  double last_s_ = 0.0;
  double reduced_seconds_ = 0.0;
};

}  // namespace simtlm::power
