// Static timing facts of every instruction of a kernel, computed once per
// launch (per LaunchContext) so the issue path does no decoding: the
// execution pipeline and collector-unit set it uses, its latency and
// initiation interval, the registers it reads and writes (scoreboard and
// register banks), and the memory path of loads/stores.
//
// Execution classes (functional::ExecClass) map to pipelines as follows
// (docs/sm-model.md, "Execution units"):
//   Int                -> INT pipeline (SP when gpu.sm.exec.int.count = 0);
//                         div/rem -> SFU
//   Fp                 -> SP
//   Sfu                -> SFU
//   Dp                 -> DP pipeline (SFU when gpu.sm.exec.dp.count = 0)
//   Load/Store/Atomic/Reduction -> LD/ST
//   Branch/Barrier/Exit/Collective/Nop -> SP with the SP default timing
//   Extension          -> as its registered timing says (models/sm/extension_timing.h),
//                         SP with the SP default timing without one
// Latency/interval: the gpu.sm.op.<int|fp|dp>.<add|max|mul|mad|div> entry of
// the opcode when it has one, else the class default (gpu.sm.exec.<class>).
#pragma once

#include <cstdint>
#include <vector>

#include "functional/executor.h"
#include "models/sm/sm_params.h"

namespace simtlm::models {

// "No such cycle" and "no warp slot" in the SM's parts.
inline constexpr uint64_t kNeverCycle = ~0ull;
inline constexpr uint32_t kNoSlot = ~0u;

enum class ExecUnit : uint8_t { Sp, Sfu, Dp, Int, Ldst };
inline constexpr unsigned kNumExecUnits = 5;
const char* to_string(ExecUnit unit);

enum class CollectorSet : uint8_t { Alu, Sfu, Mem };
inline constexpr unsigned kNumCollectorSets = 3;

// Where a memory instruction's lanes go (decided statically from the PTX
// state space; Generic is split per lane at issue).
enum class MemPath : uint8_t {
  None,
  Shared,
  Const,
  Param,      // kernel parameters (ld.param)
  CallParam,  // per-thread slots of inlined call parameters (registers on hardware)
  Global,
  Local,
  Generic,
  Space,      // an extra memory space of the SM (InstTiming::space_index), extension instructions
};

struct ExtensionTiming;

struct alignas(64) InstTiming {
  static constexpr unsigned kMaxSrc = 10;
  static constexpr unsigned kMaxDst = 4;

  // What the issue scan reads on every examination, and the register-bank
  // accesses of an issue, come first (the first cache line holds the masks
  // and the first twelve bank accesses); the virtual register lists follow.
  functional::ExecClass cls = functional::ExecClass::Nop;
  ExecUnit unit = ExecUnit::Sp;     // after the count-0 fallbacks
  CollectorSet collector = CollectorSet::Alu;
  MemPath path = MemPath::None;
  uint8_t num_src = 0;
  uint8_t num_dst = 0;
  // The same registers (src and dst) as a bit set over registers 0..127 for
  // the scoreboard's no-conflict test; operand_mask_complete is false when
  // one of them is 128 or above (the scoreboard then walks the lists).
  bool operand_mask_complete = true;
  // PTX cache operator of a global ld/st (gpu.l1d.cache_operators): the
  // global lanes of ld.cg/ld.cv go around the L1D; ld.cs/ld.lu/st.cs are
  // evict-first in the caches.
  bool global_skips_l1d = false;
  bool evict_first = false;
  uint8_t space_index = 0;  // MemPath::Space: index into SmParams::memory_spaces
  uint8_t num_rf_reads = 0;
  uint8_t num_rf_writes = 0;
  uint32_t latency = 1;
  uint32_t interval = 1;
  uint64_t operand_mask[2] = {};
  const ExtensionTiming* extension = nullptr;  // registered timing of an extension instruction
  // The physical 32-bit registers read and written at the register banks
  // (FunctionAnalysis::phys_regs; a 64-bit value is 2, a 128-bit value 4;
  // predicates and constant-bank values take no bank access). Virtual
  // register numbers stand in for a kernel without a register allocation.
  static constexpr unsigned kMaxRfReads = 20;
  static constexpr unsigned kMaxRfWrites = 8;
  uint16_t rf_reads[kMaxRfReads] = {};
  uint16_t rf_writes[kMaxRfWrites] = {};
  // The highest register number (1-based) among the registers read or
  // written in the numbering register sharing uses to split private from
  // shared registers (FunctionAnalysis::register_numbers, else physical
  // number + 1); 0 when it names none. Not limited by kMaxRfReads.
  uint16_t max_reg_number = 0;
  uint32_t src[kMaxSrc] = {};       // distinct register indices read (incl. guard, address)
  uint32_t dst[kMaxDst] = {};       // register indices written
  bool is_memory() const { return unit == ExecUnit::Ldst; }
};

class KernelTiming {
 public:
  KernelTiming(const functional::LaunchContext& ctx, const SmParams& params);

  // pc == number of instructions is the implicit exit.
  const InstTiming& at(uint32_t pc) const { return insts_[pc < insts_.size() ? pc : insts_.size() - 1]; }
  uint32_t size() const { return static_cast<uint32_t>(insts_.size()); }
  const functional::LaunchContext& ctx() const { return *ctx_; }
  uint32_t num_regs() const { return num_regs_; }

 private:
  const functional::LaunchContext* ctx_;
  uint32_t num_regs_;
  std::vector<InstTiming> insts_;
};

}  // namespace simtlm::models
