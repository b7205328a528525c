// FineReg's keys (gpu.sm.regfile.finereg.*; Oh et al., MICRO 2018; seed note
// 004 §3). Used only with gpu.sm.regfile.alloc_policy = finereg; the
// cross-key rules (models/common/config_validate.cpp) reject non-default
// values otherwise.
#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

constexpr const char* kTable = "Oh et al. MICRO 2018 Table I / §VI-A (seed note 004 §3)";

void finereg_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("gpu.sm.regfile.finereg.acrf_bytes", 131072, "bytes", 4096, 1u << 26,
                "FineReg: active-CTA register file (ACRF), holding the full register allocation of active CTAs. "
                "With pcrf_bytes it splits the register file: acrf_bytes + pcrf_bytes = gpu.sm.registers x 4. "
                "A multiple of 128 (one warp-register).",
                std::string(kTable) + ": 128 KB; §VI-G-1 varies it from 64 to 192 KB"));
  t.push_back(U("gpu.sm.regfile.finereg.pcrf_bytes", 131072, "bytes", 0, 1u << 26,
                "FineReg: pending-CTA register file (PCRF), holding only the live registers of pending CTAs in "
                "128-byte warp-register entries. A multiple of 128.",
                std::string(kTable) + ": 128 KB = 1,024 entries of 128 B"));
  t.push_back(U("gpu.sm.regfile.finereg.max_resident_ctas", 128, "CTAs", 1, 1024,
                "FineReg: CTAs resident on an SM (active + pending); active CTAs stay within gpu.sm.max_ctas.",
                "Oh et al. §V-F: 128 CTAs (seed note 004 §2.9)"));
  t.push_back(U("gpu.sm.regfile.finereg.max_resident_warps", 512, "warps", 1, 32768,
                "FineReg: warps resident on an SM (active + pending); active warps stay within "
                "gpu.sm.max_threads / gpu.sm.warp_size.",
                "Oh et al. §V-F: 512 warps (seed note 004 §2.9)"));
  t.push_back(U("gpu.sm.regfile.finereg.pcrf_latency", 4, "core cycles", 1, 1024,
                "FineReg: cycles to access a PCRF tag and its register; a switch's register movement takes "
                "pcrf_latency + live warp-registers x cycles_per_register.",
                "Oh et al. §V-E: at least four cycles (seed note 004 §2.8)"));
  t.push_back(U("gpu.sm.regfile.finereg.cycles_per_register", 1, "core cycles", 1, 64,
                "FineReg: cycles per warp-register moved between ACRF and PCRF (1 = a fully pipelined chain walk, "
                "4 = serial pointer chasing).",
                "seed note 004 §2.8 [assumption]: 1 (the paper: pipelined)"));
  t.push_back(U("gpu.sm.regfile.finereg.vector_cache_entries", 32, "entries", 1, 4096,
                "FineReg: entries of the direct-mapped live-register vector cache (a power of two; indexed by "
                "log2(entries) PC bits).",
                "Oh et al. §V-C: 32 entries, 5-bit PC hash"));
  t.push_back(E("gpu.sm.regfile.finereg.switch_order", "restore_first", {"restore_first", "launch_first"},
                "FineReg: when ACRF space frees, restore a ready pending CTA before launching a new one "
                "(restore_first) or let new CTAs in first (launch_first).",
                "Oh et al. §V-B vs §V-E disagree (seed note 004 §8); default restore_first [assumption]"));
  t.push_back(B("gpu.sm.regfile.finereg.launch_beyond_limit", true,
                "FineReg: when the active (scheduling) limits are full but the ACRF, the resident limits and shared "
                "memory (with the context backups) have room, admit a new CTA with its full ACRF allocation as "
                "pending, PEND_ACRF (1,2), its initial context in shared memory; it is switched in (context "
                "restore only) when an active slot frees or a stalled CTA swaps with it. false: new CTAs enter "
                "only as active CTAs.",
                "Oh et al. §IV-A / §IV-C (seed note 004 §2.4: launch beyond the scheduling limit, VT-style)"));
  t.push_back(B("gpu.sm.regfile.finereg.context_only_switch", true,
                "FineReg: a stalled CTA whose partner (a ready pending CTA) or a new CTA fits in the ACRF beside "
                "its registers switches its context only and rests in PEND_ACRF (1,2), registers in place; false: "
                "every switch-out moves the live registers to the PCRF.",
                "Oh et al. §IV-C state machine (seed note 004 §2.4: context out, registers stay) [assumption: "
                "when to use it]"));
  t.push_back(B("gpu.sm.regfile.finereg.check", false,
                "FineReg checking mode: at every switch-out the live registers' values go into the PCRF entries "
                "and the non-live registers of the CTA's warps are overwritten with a poison value; at every "
                "switch-in the PCRF's values are written back and compared with those saved (a mismatch is a "
                "model error naming CTA, warp and register).",
                "seed note 004 §7 invariants 1-2 (simtlm verification aid)"));
}

const Registration kFineReg(kRankSm + 1, "finereg", &finereg_keys);

}  // namespace
}  // namespace simtlm::config_keys
