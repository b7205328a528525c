// Keys of FineReg's comparison mechanisms (Oh et al., MICRO 2018, §VI; seed
// note 004 §2.10): Virtual Thread (gpu.sm.regfile.vt.*, used by the policies
// vt and regdram, and by finereg for its pipeline-context backup) and
// Reg+DRAM (gpu.sm.regfile.regdram.*, policy regdram).
// The cross-key rules (models/common/config_validate.cpp) reject non-default
// values under other policies.
#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void vt_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("gpu.sm.regfile.vt.context_bytes_per_warp", 128, "bytes", 1, 65536,
                "FineReg / Virtual Thread / Reg+DRAM: pipeline context (PC, SIMT stack, scoreboard, predicates) "
                "of one warp of a pending CTA, backed up in shared memory. Pending CTAs' backups plus the CTAs' "
                "shared memory must fit in gpu.sm.shared_memory_bytes: a CTA is not switched out (nor a new one "
                "admitted) otherwise.",
                "simtlm decision [assumption]: the seed gives no size (Yoon et al. ISCA'16 keep it in shared "
                "memory); 32 lanes x 1 mask bit + PC + an 8-entry SIMT stack + scoreboard, rounded to 128 B"));
  t.push_back(U("gpu.sm.regfile.vt.context_bytes_per_cycle", 128, "bytes/cycle", 1, 4096,
                "FineReg / Virtual Thread / Reg+DRAM: shared-memory bandwidth for saving and restoring pipeline "
                "contexts; a context switch of a CTA of w warps takes ceil(w x context_bytes_per_warp / this) "
                "cycles each way (FineReg: overlapped with its register movement).",
                "simtlm decision [assumption]: 32 banks x 4 B per cycle (the preset's shared memory)"));
  t.push_back(U("gpu.sm.regfile.regdram.max_offchip_ctas", 32, "CTAs", 1, 1024,
                "Reg+DRAM: CTAs per SM whose register context may sit in off-chip memory at once (the paper "
                "tunes it per application for best performance).",
                "Oh et al. §VI (seed note 004 §2.10): tuned per application; default 32 [assumption]"));
}

const Registration kVt(kRankSm + 2, "vt", &vt_keys);  // after FineReg's keys

}  // namespace
}  // namespace simtlm::config_keys
