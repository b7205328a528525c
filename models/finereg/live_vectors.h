// FineReg's live-register bit vectors (Oh et al., MICRO 2018, §IV-B/§V-A;
// seed note 004 §2.3): for every static instruction of a kernel, a 64-bit
// vector whose bit r says that physical 32-bit register r of a thread is
// live on entry to the instruction (read on some path before being written).
// The compiler produces them; the hardware loads them into a reserved area of
// global memory at launch and reads the vector of a stalled warp's PC through
// the RMU's vector cache (vector_cache.h) to know which registers to move to
// the PCRF.
//
// Built from our analyses (frontend/analysis/liveness.h: guarded writes do
// not kill; regalloc.h: a 64-bit value is an aligned pair of 32-bit
// registers, both bits set). Predicates are not in the vector: they are part
// of the warp's pipeline context, which FineReg backs up with the CTA's
// context (as Virtual Thread does), not in the register file. Registers that
// hold constant-bank values have no register and no bit.
//
// Under divergence the registers of every path still to run must survive,
// and a switch saves all 32 lanes of a register, so a warp's set is the OR of
// the vectors of the PCs on its SIMT reconvergence stack (note §2.3, an
// assumption: the paper names only "the PC" of a warp). Precisely: each lane
// resumes at the PC of the topmost stack entry holding it, so the OR is over
// the entries that are some lane's topmost (effective_pcs); an entry whose
// lanes all sit in entries above it (the reconvergence entry while both paths
// are pending) adds nothing its lanes need (its live-in set reaches the
// paths' PCs through the dataflow) and would only name registers the paths
// overwrite before reconverging.
//
// The table also keeps the live virtual registers per instruction (the
// functional model's numbering): the checking mode (live_check.h) saves and
// restores exactly those.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "functional/warp.h"
#include "frontend/ir/module.h"

namespace simtlm::models::finereg {

// One bit per physical 32-bit register of a thread (FineReg supports 64).
using LiveVector = uint64_t;
inline constexpr uint32_t kVectorBits = 64;

class LiveVectorTable {
 public:
  // Vectors of every instruction of `kernel` (analysed: fn.analysis.analyses
  // set). The implicit exit (pc == instructions) has an empty vector.
  explicit LiveVectorTable(const ir::Function& kernel);

  // False when a live register's physical number does not fit in the 64-bit
  // vector (more than 64 registers per thread: FineReg cannot switch the
  // kernel's CTAs); why() then names the kernel and the register.
  bool fits() const { return why_.empty(); }
  const std::string& why() const { return why_; }

  uint32_t size() const { return static_cast<uint32_t>(vectors_.size()); }
  // Vector of instruction `pc` (the implicit exit and beyond: empty).
  LiveVector at(uint32_t pc) const { return pc < vectors_.size() ? vectors_[pc] : 0; }
  // The PCs lanes resume at, with their lanes: for each stack entry from
  // the top, the lanes it holds that no entry above holds (none: omitted).
  static std::vector<std::pair<uint32_t, uint64_t>> effective_pcs(
      const std::vector<functional::Warp::StackEntry>& stack);
  // OR of the vectors of the warp's effective PCs (0 for a finished warp).
  LiveVector of_stack(const std::vector<functional::Warp::StackEntry>& stack) const;
  // Live virtual registers (non-predicate, with a physical register) at `pc`.
  const std::vector<uint32_t>& live_virtual(uint32_t pc) const;
  // Union of live_virtual() over the effective PCs, sorted, without duplicates.
  std::vector<uint32_t> live_virtual_of_stack(const std::vector<functional::Warp::StackEntry>& stack) const;

  // Bytes of the reserved global-memory area (8 B per static instruction;
  // the paper: <= 600 instructions -> 4.8 KB).
  uint64_t table_bytes() const { return uint64_t(vectors_.size()) * sizeof(LiveVector); }
  const std::string& kernel_name() const { return kernel_name_; }

 private:
  std::string kernel_name_;
  std::string why_;
  std::vector<LiveVector> vectors_;
  std::vector<std::vector<uint32_t>> virtual_;
};

}  // namespace simtlm::models::finereg
