#include "models/vws/gang_issue.h"

#include <algorithm>

#include "simtlm/error.h"

namespace simtlm::models::vws {

GangOrder gang_order_from_name(const std::string& name) {
  if (name == "gto") return GangOrder::Gto;
  if (name == "bgto") return GangOrder::Bgto;
  if (name == "lgto") return GangOrder::Lgto;
  if (name == "lpc") return GangOrder::Lpc;
  if (name == "lrr") return GangOrder::Lrr;
  throw Error(ErrorKind::Config, "unknown gang issue order '" + name + "' (gto, bgto, lgto, lpc, lrr)");
}

std::vector<uint32_t> GangIssue::select(std::vector<GangCandidate> c, SliceMask& used) {
  const uint32_t last = last_;
  auto size = [](const GangCandidate& g) { return __builtin_popcount(g.mask); };
  // GTO part of every greedy order: the last gang issued first, then oldest
  // (gang id breaks ties deterministically).
  auto gto = [last](const GangCandidate& a, const GangCandidate& b) {
    if ((a.gang == last) != (b.gang == last)) return a.gang == last;
    if (a.age != b.age) return a.age < b.age;
    return a.gang < b.gang;
  };
  switch (order_) {
    case GangOrder::Gto: std::sort(c.begin(), c.end(), gto); break;
    case GangOrder::Bgto:
      std::sort(c.begin(), c.end(), [&](const GangCandidate& a, const GangCandidate& b) {
        return size(a) != size(b) ? size(a) > size(b) : gto(a, b);
      });
      break;
    case GangOrder::Lgto:
      std::sort(c.begin(), c.end(), [&](const GangCandidate& a, const GangCandidate& b) {
        return size(a) != size(b) ? size(a) < size(b) : gto(a, b);
      });
      break;
    case GangOrder::Lpc:
      std::sort(c.begin(), c.end(), [](const GangCandidate& a, const GangCandidate& b) {
        if (a.pc != b.pc) return a.pc < b.pc;
        return a.age != b.age ? a.age < b.age : a.gang < b.gang;
      });
      break;
    case GangOrder::Lrr:
      // Gang ids after the last one issued first, wrapping around.
      std::sort(c.begin(), c.end(), [last](const GangCandidate& a, const GangCandidate& b) {
        const bool a_after = last == kNoGang || a.gang > last, b_after = last == kNoGang || b.gang > last;
        if (a_after != b_after) return a_after;
        return a.gang < b.gang;
      });
      break;
  }
  std::vector<uint32_t> chosen;
  used = 0;
  for (const GangCandidate& g : c) {
    if (chosen.size() == max_gangs_) break;
    if (g.mask & used) continue;  // a slice runs one instruction per cycle
    chosen.push_back(g.gang);
    used |= g.mask;
  }
  if (!chosen.empty()) last_ = chosen.front();
  return chosen;
}

}  // namespace simtlm::models::vws
