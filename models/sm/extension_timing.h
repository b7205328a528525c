// How an extension instruction (ir::Opcode::Extension, frontend/ptx/
// extensions.h; semantics in functional/extensions.h) is timed by the SM.
// Without a registration it runs on the SP pipeline with the SP's default
// timing. A registration declares:
//   cls           the execution class that chooses its pipeline (Load, Store,
//                 Atomic and Reduction go through the LD/ST unit; Int, Fp,
//                 Sfu, Dp to theirs)
//   memory_space  for LD/ST classes: "global", "shared", "local", or the name
//                 of an extra memory space of the SM (SmParams::memory_spaces,
//                 with its own TLM port; e.g. communication buffers). The
//                 lanes' addresses are those the functional handler put in
//                 the ExecRecord. A kernel that uses an extension whose space
//                 the SM lacks is Error(Ptx) naming the PTX line.
//   on_issue      called after the instruction issued, with the SM services a
//                 mechanism may use (e.g. relssp releasing a sharing lock).
// Register before the launch that uses the instruction (KernelTiming looks
// registrations up once per launch and SM).
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "functional/warp.h"

namespace simtlm::models {

namespace regfile {
class Allocator;
}
namespace smem {
class Allocator;
}
class SmCycleHook;

// What an SM offers to the timing hooks of extension instructions (narrow on
// purpose: a mechanism asks for a service, it does not reach into the SM).
class SmServices {
 public:
  virtual ~SmServices() = default;
  virtual uint32_t sm_id() const = 0;
  virtual uint64_t cycle() const = 0;
  virtual regfile::Allocator& register_allocator() = 0;
  virtual smem::Allocator& shared_allocator() = 0;
  // Stops / restarts offering the warps of the CTA in `cta_slot` to the schedulers.
  virtual void suspend_cta(uint32_t cta_slot) = 0;
  virtual void resume_cta(uint32_t cta_slot) = 0;
  // A mechanism freed room for another CTA without a CTA completing (FineReg
  // moved a CTA's registers out): the platform may place waiting CTAs.
  virtual void cta_room_freed() {}
  // True when the platform has CTAs of the running launch still to place.
  virtual bool ctas_waiting() const { return false; }
  // A mechanism's own global-memory access (LdstUnit::issue_mechanism:
  // queued behind the instructions' transactions, through the L1D for loads
  // when `via_l1d`): returns a ticket; `requester`'s on_access_done(ticket)
  // is called the cycle its last response arrives. Error(Internal) on an
  // SM without a memory path.
  virtual uint32_t mechanism_access(SmCycleHook& requester, uint64_t addr, uint32_t bytes, bool write,
                                    bool via_l1d);
};

struct ExtensionIssue {
  uint64_t cycle;
  uint32_t warp_slot;
  uint32_t cta_slot;
  uint64_t cta_id;
  uint32_t warp_in_cta;
  const functional::ExecRecord& record;
};

struct ExtensionTiming {
  functional::ExecClass cls = functional::ExecClass::Extension;
  std::string memory_space;
  std::function<void(SmServices&, const ExtensionIssue&)> on_issue;
};

// Registers (or replaces) the timing of extension `ext_id`.
void register_extension_timing(uint16_t ext_id, ExtensionTiming timing);
// Removes a registration (tests).
void unregister_extension_timing(uint16_t ext_id);
// The registration of `ext_id`, or nullptr (valid until it is replaced or removed).
const ExtensionTiming* find_extension_timing(uint16_t ext_id);

}  // namespace simtlm::models
