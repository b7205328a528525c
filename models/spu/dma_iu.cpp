// A DMA interface unit's program and its face moves (see dma_iu.h).
#include "models/spu/dma_iu.h"

#include <algorithm>
#include <cstring>
#include <string>

#include "frontend/ir/module.h"
#include "functional/executor.h"
#include "functional/memory.h"
#include "simtlm/error.h"

namespace simtlm::models::spu {

using functional::spu::Dir;
using functional::spu::SyncKind;

namespace {

[[noreturn]] void broken(const functional::LaunchContext& ctx, const std::string& rule) {
  throw Error(ErrorKind::Launch, "kernel '" + ctx.kernel().name + "' cannot run with spu.iu.kind = dma: " + rule +
                                     " (the DMA interface units follow the face-stream contract of docs/spu.md, "
                                     "\"DMA interface units\"; run it with spu.iu.kind = sm)");
}

// Kernel parameter `i` as an unsigned value of `bytes` bytes.
uint64_t param(const functional::LaunchContext& ctx, size_t i, unsigned bytes, const char* what) {
  const ir::Function& k = ctx.kernel();
  const std::string name = "parameter " + std::to_string(i) + " (" + what + ")";
  if (i >= k.params.size()) broken(ctx, "it has " + std::to_string(k.params.size()) + " parameters, no " + name);
  const ir::Variable& v = ctx.module().vars.at(k.params[i]);
  if (ir::type_size(v.type) != bytes || v.size != bytes) {
    broken(ctx, name + " must be a " + std::to_string(8 * bytes) + "-bit scalar");
  }
  uint64_t value = 0;
  if (v.param_offset + bytes > ctx.params().size()) broken(ctx, name + " lies outside the parameter buffer");
  std::memcpy(&value, ctx.params().data() + v.param_offset, bytes);
  return value;
}

}  // namespace

FaceStream FaceStream::of(const functional::LaunchContext& ctx, uint32_t cb_bytes) {
  FaceStream s;
  s.faces_x = param(ctx, 1, 8, "west/east face array");
  s.faces_y = param(ctx, 2, 8, "north/south face array");
  const auto n = static_cast<int32_t>(param(ctx, 4, 4, "N, rows of the face arrays"));
  const auto k = static_cast<int32_t>(param(ctx, 5, 4, "K, words per row"));
  s.global = param(ctx, 6, 4, "synchronisation scheme") != 0;
  if (n <= 0 || k <= 0) broken(ctx, "N = " + std::to_string(n) + " and K = " + std::to_string(k) + " must be positive");
  s.rows = uint32_t(n);
  s.cols = uint32_t(k);
  const functional::Dim3u& blk = ctx.block();
  if (blk.y != 1 || blk.z != 1) broken(ctx, "the tile side is blockDim.x: the block must be one-dimensional");
  s.b = blk.x;
  if (4ull * s.b * s.b > cb_bytes) {
    broken(ctx, "a face of " + std::to_string(s.b) + " x " + std::to_string(s.b) + " words does not fit a CB of " +
                    std::to_string(cb_bytes) + " bytes (spu.cb_bytes)");
  }
  s.nk = (s.cols + s.b - 1) / s.b;
  s.gx = ctx.grid().x;
  s.gy = ctx.grid().y;
  return s;
}

DmaIu::DmaIu(functional::spu::Unit& unit, const FaceStream& stream)
    : unit_(&unit), s_(stream), loads_(functional::spu::is_incoming(unit.iu_dir)) {
  const uint32_t g = unit.iu_dir == Dir::East ? s_.gx : s_.gy;
  first_ = loads_ ? unit.lane : g + unit.lane + 1;
}

DmaIu::Step DmaIu::next() {
  if (s_.global) {
    const uint32_t steps = s_.gx + s_.gy + s_.nk;
    if (step_ >= steps) return Step::Finish;
    if (!second_) {
      second_ = true;
      if (step_ >= first_ && step_ - first_ < s_.nk) {
        kt_ = step_ - first_;
        return Step::Move;
      }
    }
    second_ = false;
    ++step_;
    kind_ = SyncKind::Global;
    return Step::Sync;
  }
  if (step_ >= s_.nk) return Step::Finish;
  // West/north: the face, then .east/.south; east/south: .west/.north, then the face.
  const bool move = loads_ != second_;
  kt_ = step_;
  if (second_) ++step_;
  second_ = !second_;
  if (move) return Step::Move;
  const Dir link = unit_->iu_dir == Dir::West    ? Dir::East
                   : unit_->iu_dir == Dir::North ? Dir::South
                   : unit_->iu_dir == Dir::East  ? Dir::West
                                                 : Dir::North;
  kind_ = static_cast<SyncKind>(static_cast<uint8_t>(link) + 2);
  return Step::Sync;
}

DmaIu::Moved DmaIu::move(functional::spu::Fabric& fabric, functional::GlobalMemory& memory) const {
  const Dir dir = unit_->iu_dir;
  const bool horizontal = dir == Dir::West || dir == Dir::East;
  const Dir side = dir == Dir::West ? Dir::East : dir == Dir::North ? Dir::South : dir == Dir::East ? Dir::West : Dir::North;
  uint8_t* cb = fabric.buffer(*unit_, side);
  if (cb == nullptr) throw Error(ErrorKind::Internal, "DMA " + unit_->name + " has no CB");
  const uint64_t base = horizontal ? s_.faces_x : s_.faces_y;
  const uint32_t k0 = kt_ * s_.b, len = std::min(s_.b, s_.cols - k0);
  Moved m;
  m.to_memory = !loads_;
  int64_t last_row = -1;  // CB bank rows (128 bytes: 32 words) already counted
  for (uint32_t r = 0; r < s_.b; ++r) {
    const uint64_t row = uint64_t(unit_->lane) * s_.b + r;
    if (row >= s_.rows) break;
    const uint64_t addr = base + 4 * (row * s_.cols + k0);
    uint8_t* words = cb + 4 * (size_t(r) * s_.b);
    uint8_t* g = memory.translate(addr, 4ull * len);
    if (loads_) {
      std::memcpy(words, g, 4ull * len);
    } else {
      std::memcpy(g, words, 4ull * len);
    }
    m.spans.push_back({addr, 4 * len});
    m.words += len;
    const int64_t first = int64_t(r) * s_.b / 32, last = (int64_t(r) * s_.b + len - 1) / 32;
    m.cb_rows += uint64_t(last - std::max(first - 1, last_row));
    last_row = last;
  }
  return m;
}

}  // namespace simtlm::models::spu
