// Timing of the `relssp` instruction (Jatala ch. 3, seed note 000 §2.10;
// frontend::ptx::ExtensionRegistry::kRelssp): it issues like any one-cycle SP
// instruction and, at issue, hands the lanes that executed it to the SM's
// shared-memory allocator (smem::Allocator::relssp). Scratchpad sharing
// releases its pair lock when every active thread of the CTA has executed it;
// every other allocator ignores it, so with sharing off `relssp` is a no-op
// that costs one issue slot.
#pragma once

namespace simtlm::models::smem {

// Registers the timing (models::register_extension_timing); idempotent. Done
// when the allocator registry is first used, i.e. before any SM exists.
void register_relssp_timing();

}  // namespace simtlm::models::smem
