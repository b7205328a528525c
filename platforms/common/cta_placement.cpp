// The placement registry and the default round-robin policy. The default is
// registered in this file, which the platform always links (it calls
// make_cta_placement), so it is present without whole-archive linking.
#include "platforms/common/cta_placement.h"

#include <map>

#include "simtlm/error.h"

namespace simtlm::platforms {

namespace {

std::map<std::string, CtaPlacementFactory>& registry() {
  static std::map<std::string, CtaPlacementFactory> r;
  return r;
}

const CtaPlacementRegistration kRoundRobin("round_robin", [] { return std::make_unique<RoundRobinPlacement>(); });

}  // namespace

void RoundRobinPlacement::begin_launch(unsigned num_sms) {
  (void)num_sms;
  next_ = 0;
}

void RoundRobinPlacement::place(PlacementTarget& t) {
  const unsigned n = t.num_sms();
  while (t.waiting() != 0) {
    bool placed = false;
    unsigned last = next_;
    for (unsigned k = 0; k < n && t.waiting() != 0; ++k) {
      const unsigned i = (next_ + k) % n;
      if (!t.can_admit(i)) continue;
      t.place(i);
      placed = true;
      last = i;
    }
    if (!placed) break;
    next_ = (last + 1) % n;
  }
}

void register_cta_placement(const std::string& name, CtaPlacementFactory factory) {
  if (!registry().emplace(name, std::move(factory)).second) {
    throw Error(ErrorKind::Internal, "CTA placement '" + name + "' is registered twice");
  }
}

std::unique_ptr<CtaPlacement> make_cta_placement(const std::string& name) {
  const auto it = registry().find(name);
  if (it == registry().end()) {
    std::string known;
    for (const auto& [n, f] : registry()) known += (known.empty() ? "" : ", ") + n;
    throw Error(ErrorKind::Config, "unknown CTA placement '" + name + "'; registered: " + known);
  }
  return it->second();
}

std::vector<std::string> cta_placement_names() {
  std::vector<std::string> names;
  for (const auto& [n, f] : registry()) names.push_back(n);
  return names;
}

}  // namespace simtlm::platforms
