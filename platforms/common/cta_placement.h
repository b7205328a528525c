// CTA -> SM placement: which SM receives the next CTA of a launch. The
// platform's dispatcher asks its CtaPlacement to place waiting CTAs at the
// start of a launch and after every CTA completion (when an SM may have room
// again); the policy decides where, the target enforces admission.
//
// Policies are built by name from a registry, so a study can add one in its
// own file:
//
//   class MyPlacement : public CtaPlacement { ... };
//   const CtaPlacementRegistration reg("my_placement", [] { return std::make_unique<MyPlacement>(); });
//   platform.set_cta_placement(make_cta_placement("my_placement"));
//
// The configuration chooses one by gpu.cta_placement, whose allowed values
// (models/common/gpu_config_keys.cpp) are the policies built into the
// platforms library; a test checks that each of them is registered.
//
// "round_robin" (the default of every platform) is GPGPU-Sim's issue order:
// one CTA per SM that can admit one, SM by SM, starting after the SM that
// received the last CTA, repeated while any SM takes a CTA.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace simtlm::models {
class Sm;
}

namespace simtlm::platforms {

// What a placement policy sees and does while CTAs of a launch wait.
class PlacementTarget {
 public:
  virtual unsigned num_sms() const = 0;
  // CTAs of the launch not yet placed.
  virtual uint64_t waiting() const = 0;
  // Linear id of the next CTA to place.
  virtual uint64_t next_cta() const = 0;
  // Whether SM `sm` can take the next CTA now (its allocators admit it).
  virtual bool can_admit(unsigned sm) = 0;
  // Places the next CTA on SM `sm`; requires waiting() != 0 and can_admit(sm).
  virtual void place(unsigned sm) = 0;
  // Read access to an SM (occupancy, progress) for policies that weigh them.
  virtual const models::Sm& sm(unsigned i) const = 0;

 protected:
  ~PlacementTarget() = default;
};

class CtaPlacement {
 public:
  virtual ~CtaPlacement() = default;
  // A launch begins (reset per-launch state).
  virtual void begin_launch(unsigned num_sms) { (void)num_sms; }
  // Place as many waiting CTAs as the policy wants now; CTAs left waiting are
  // offered again after the next CTA completion. A launch in which nothing is
  // resident and nothing is placed ends as a deadlock.
  virtual void place(PlacementTarget& target) = 0;
};

// Today's default (see the file comment).
class RoundRobinPlacement final : public CtaPlacement {
 public:
  void begin_launch(unsigned num_sms) override;
  void place(PlacementTarget& target) override;

 private:
  unsigned next_ = 0;  // SM the next pass starts at
};

using CtaPlacementFactory = std::function<std::unique_ptr<CtaPlacement>()>;

// Registers a policy under `name`; a duplicate name is Error(Internal).
void register_cta_placement(const std::string& name, CtaPlacementFactory factory);
// A new policy by name; an unknown name is Error(Config) listing the known ones.
std::unique_ptr<CtaPlacement> make_cta_placement(const std::string& name);
// Registered names, sorted.
std::vector<std::string> cta_placement_names();

// Registers at static initialisation (one object per policy, in its own file).
struct CtaPlacementRegistration {
  CtaPlacementRegistration(const std::string& name, CtaPlacementFactory factory) {
    register_cta_placement(name, std::move(factory));
  }
};

}  // namespace simtlm::platforms
