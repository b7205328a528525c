// The Stencil Processing Unit's instructions (Rajasree, seed note 003 §1.3,
// §1.5; docs/spu.md): built-ins of every ExtensionRegistry, so that the PTX of
// an SPU kernel parses on every platform and the gpu platform can reject it at
// launch naming the line (runtime/spu_launch.h). Spelling (the thesis leaves
// it to Uguen's report, which is not available; docs/spu.md "Decisions"):
//
//   ld.cb.north.T d, [a];   ld.cb.west.T d, [a];   read the consumer buffer of
//                                                  the incoming link
//   st.cb.south.T [a], v;   st.cb.east.T [a], v;   write the producer buffer of
//                                                  the outgoing link
//   bar.blocksync;                                 global: every active unit,
//                                                  then every CB pair swaps
//   bar.blocksync.north; (.west, .south, .east)    producer-consumer rendezvous
//                                                  on one link, which swaps
//   spu.sreg.u32 d, NAME;                          SPU special register
//
// T is a 32- or 64-bit type (.b32 .u32 .s32 .f32 .b64 .u64 .s64 .f64); `a` is
// a byte offset in the communication buffer ([reg], [reg+imm] or [imm]).
// Data moves only west->east and north->south, so a unit loads from its north
// and west links and stores to its south and east links; `ld.cb` and `st.cb`
// with another direction or none are parse errors that say so.
#pragma once

#include <cstdint>
#include <string_view>

namespace simtlm::frontend::ptx {

class ExtensionRegistry;

namespace spu {

// Ids (fixed: registered by the ExtensionRegistry constructor right after the
// other built-ins, in this order).
inline constexpr uint16_t kLdCbAny = 6;        // `ld.cb` without a valid direction: always rejected
inline constexpr uint16_t kLdCbNorth = 7;
inline constexpr uint16_t kLdCbWest = 8;
inline constexpr uint16_t kStCbAny = 9;        // `st.cb` without a valid direction: always rejected
inline constexpr uint16_t kStCbSouth = 10;
inline constexpr uint16_t kStCbEast = 11;
inline constexpr uint16_t kBlocksync = 12;     // global
inline constexpr uint16_t kBlocksyncNorth = 13;
inline constexpr uint16_t kBlocksyncWest = 14;
inline constexpr uint16_t kBlocksyncSouth = 15;
inline constexpr uint16_t kBlocksyncEast = 16;
inline constexpr uint16_t kSreg = 17;
inline constexpr uint16_t kFirst = kLdCbAny, kLast = kSreg;

inline bool is_spu_instruction(uint16_t ext_id) { return ext_id >= kFirst && ext_id <= kLast; }

// Operand 1 of spu.sreg is an Imm holding the index of its name here.
enum class SpuReg : uint8_t {
  IsIu,      // 1 on an interface unit, 0 on an SM
  IuDir,     // the IU's side: 0 north, 1 west, 2 south, 3 east; 4 on an SM
  IuId,      // the IU's lane along its side (column for north/south, row for west/east); 0 on an SM
  RegViu,    // 1 while the IU acts as a virtual IU (multi-pass spill/restore)
  RegPassX,  // x coordinate of the unit's current pass
  RegPassY,  // y coordinate of the unit's current pass
  RegNPassX, // passes along x of the launch
  RegNPassY, // passes along y of the launch
  Count
};
inline constexpr std::string_view kSpuRegNames[] = {"isiu",    "iudir",    "iuid",      "regviu",
                                                    "regpassx", "regpassy", "regnpassx", "regnpassy"};

// Adds the SPU instructions to `registry` (ids above; Error(Internal) if the
// registry did not hand out exactly those).
void register_spu_extensions(ExtensionRegistry& registry);

}  // namespace spu
}  // namespace simtlm::frontend::ptx
