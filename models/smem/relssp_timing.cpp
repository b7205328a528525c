#include "models/smem/relssp_timing.h"

#include "frontend/ptx/extensions.h"
#include "models/sm/extension_timing.h"
#include "models/smem/allocator.h"

namespace simtlm::models::smem {

void register_relssp_timing() {
  ExtensionTiming t;
  t.cls = functional::ExecClass::Nop;
  t.on_issue = [](SmServices& sm, const ExtensionIssue& e) {
    if (e.record.exec_mask != 0) sm.shared_allocator().relssp(e.cta_slot, e.warp_in_cta, e.record.exec_mask);
  };
  register_extension_timing(frontend::ptx::ExtensionRegistry::kRelssp, std::move(t));
}

}  // namespace simtlm::models::smem
