// The DMA variant of the SPU's interface units (spu.iu.kind = dma; Rajasree
// Table 7.1 and Table 6.4; docs/spu.md, "DMA interface units"): an FSM on
// the IU's node that runs no instructions and moves whole faces between
// global memory and its edge CB, synchronising as the kernel's IU code does.
//
// A DMA engine cannot read the kernel's IU code, so it follows the IU role's
// documented contract, the "face stream" (the contract spu_stencil_cb's IU
// code implements; workloads/spu_stencil/kernel.cu):
//
//   - the kernel's parameters 1 and 2 (PTX numbering from 0) are 64-bit
//     addresses of two row-major arrays of 4-byte words with N rows of K
//     words: the west/east IUs' faces live in parameter 1, the north/south
//     IUs' in parameter 2; parameters 4, 5 and 6 are 32-bit integers N, K
//     and the synchronisation scheme (0: directed, Alg. 3; otherwise global,
//     Alg. 1);
//   - the tile side b is the launch's blockDim.x (blockDim.y = .z = 1), and
//     a face must fit one CB (4 b^2 <= spu.cb_bytes);
//   - face kt (kt < nk = ceil(K / b)) of the IU of lane l (its column or row
//     in the whole grid, spu.sreg iuid) is the words (l b + r, kt b + c) for
//     r, c < b inside the array, at CB byte 4 (r b + c);
//   - directed: a west/north IU, per face, moves it into its CB then
//     synchronises on its link (.east/.south); an east/south IU synchronises
//     on its link (.west/.north) then moves the face out;
//   - global: gx + gy + nk steps, each ending with the global barrier; the
//     west/north IU of lane l moves face kt at step l + kt, the east (south)
//     IU at step gx (gy) + l + kt + 1.
//
// FaceStream::of() reads and checks the contract at launch (Error(Launch)
// naming spu.iu.kind when a kernel does not follow it). DmaIu walks one IU's
// steps; its face moves the data at once (the functional model, as for every
// global access of the timing model) and returns the spans to time (one per
// face row, models/spu/tile_mover.h). It is shared by no backend but the
// timing one: the functional backend rejects spu.iu.kind = dma.
#pragma once

#include <cstdint>
#include <vector>

#include "functional/spu/spu_fabric.h"
#include "models/spu/tile_mover.h"

namespace simtlm::functional {
class GlobalMemory;
class LaunchContext;
}  // namespace simtlm::functional

namespace simtlm::models::spu {

struct FaceStream {
  uint64_t faces_x = 0;  // parameter 1: the west/east faces
  uint64_t faces_y = 0;  // parameter 2: the north/south faces
  uint32_t rows = 0;     // N
  uint32_t cols = 0;     // K
  uint32_t b = 0;        // tile side (blockDim.x)
  uint32_t nk = 0;       // faces per lane
  uint32_t gx = 0, gy = 0;  // the launch's grid (global steps)
  bool global = false;
  // Throws Error(Launch) naming the kernel, the broken rule and spu.iu.kind.
  static FaceStream of(const functional::LaunchContext& ctx, uint32_t cb_bytes);
};

class DmaIu {
 public:
  enum class Step : uint8_t { Move, Sync, Finish };
  // A real IU (not virtual) of the launch's fabric.
  DmaIu(functional::spu::Unit& unit, const FaceStream& stream);

  functional::spu::Unit& unit() const { return *unit_; }
  // The next step of the IU's program; Sync: sync_kind() is where it waits.
  Step next();
  functional::spu::SyncKind sync_kind() const { return kind_; }

  struct Moved {
    std::vector<TileMover::Span> spans;  // global memory, one per face row
    uint64_t words = 0;                  // 4-byte words moved (off-chip accesses)
    uint64_t cb_rows = 0;                // 128-byte CB bank rows accessed (CB_ACC)
    bool to_memory = false;              // east/south: CB -> global memory
  };
  // The face of the last Move step: copies it now (CB <- memory for a
  // west/north IU, memory <- CB for an east/south one).
  Moved move(functional::spu::Fabric& fabric, functional::GlobalMemory& memory) const;

 private:
  functional::spu::Unit* unit_;
  FaceStream s_;
  bool loads_;        // west/north: global memory -> CB
  uint32_t first_;    // global: step of face 0
  uint32_t step_ = 0; // directed: face; global: step
  bool second_ = false;  // the second half of the step
  uint32_t kt_ = 0;      // face of the last Move
  functional::spu::SyncKind kind_ = functional::spu::SyncKind::None;
};

}  // namespace simtlm::models::spu
