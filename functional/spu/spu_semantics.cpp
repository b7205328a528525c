// What the SPU instructions do (frontend/ptx/spu_extensions.h; docs/spu.md):
// communication-buffer loads and stores, bar.blocksync and spu.sreg, on the
// unit (functional/spu/spu_fabric.h) the executing CTA runs on.
#include <cstring>
#include <string>

#include "frontend/ptx/spu_extensions.h"
#include "functional/cta.h"
#include "functional/executor.h"
#include "functional/extensions.h"
#include "functional/spu/spu_fabric.h"
#include "functional/spu/spu_launch.h"
#include "simtlm/error.h"

namespace simtlm::functional::spu {

namespace {

namespace ext = frontend::ptx::spu;

unsigned first_lane(uint64_t mask) { return static_cast<unsigned>(__builtin_ctzll(mask)); }

std::string where(const ExtensionCall& c, unsigned lane) {
  return describe_lane(c.ctx, c.cta, c.warp, &c.inst, lane);
}

// The unit of the executing CTA. Outside an SPU launch (the runtime rejects
// such kernels on other platforms before they run; this is the backstop).
Unit& unit_of(const ExtensionCall& c) {
  Unit* u = c.cta.spu_unit();
  if (!u) {
    throw Error(ErrorKind::Ptx, where(c, c.exec_mask ? first_lane(c.exec_mask) : 0) +
                                    ": an SPU instruction outside an SPU launch (sim.platform = spu)");
  }
  return *u;
}

uint8_t* link_buffer(const ExtensionCall& c, Unit& u, Dir dir) {
  uint8_t* buf = u.fabric->buffer(u, dir);
  if (!buf) {
    throw Error(ErrorKind::Fault, where(c, first_lane(c.exec_mask)) + ": " + u.name + " has no " + dir_name(dir) +
                                      " link (its communication buffers are on the " +
                                      (u.is_iu ? std::string("grid's side only") : std::string("four sides")) + ")");
  }
  return buf;
}

// Checks every executing lane's CB byte offset before any lane accesses it;
// leaves them in the warp's address array (the record's addresses).
uint64_t* cb_addresses(ExtensionCall& c, const Unit& u, const ir::Operand& op, unsigned size) {
  uint64_t* addrs = c.warp.addresses();
  const uint64_t cb = u.fabric->cb_bytes();
  if (op.base == ir::OperandKind::Symbol)
    throw Error(ErrorKind::Ptx, where(c, first_lane(c.exec_mask)) +
                                    ": a communication-buffer address is a byte offset ([reg], [reg+imm] or [imm]), not a variable");
  const uint64_t* base = op.base == ir::OperandKind::Reg ? c.warp.reg(op.reg) : nullptr;
  for (uint64_t m = c.exec_mask; m; m &= m - 1) {
    const unsigned lane = first_lane(m);
    const uint64_t a = (base ? base[lane] : 0) + static_cast<uint64_t>(op.offset);
    if (a % size != 0 || a >= cb || cb - a < size) {
      throw Error(ErrorKind::Fault, where(c, lane) + ": communication-buffer offset " + std::to_string(a) + " (" +
                                        std::to_string(size) + " bytes) is " +
                                        (a % size != 0 ? "misaligned" : "outside the buffer") +
                                        " (spu.cb_bytes = " + std::to_string(cb) + ")");
    }
    addrs[lane] = a;
  }
  c.record.addresses = addrs;
  c.record.access_bytes = size;
  return addrs;
}

void cb_load(ExtensionCall& c, Dir dir) {
  Unit& u = unit_of(c);
  if (!c.exec_mask) return;
  uint8_t* buf = link_buffer(c, u, dir);
  const unsigned size = ir::type_size(c.inst.type);
  const uint64_t* addrs = cb_addresses(c, u, c.inst.ops[1], size);
  const uint32_t dst = c.inst.ops[0].reg;
  const bool widen = ir::is_signed(c.inst.type) && size == 4 && ir::type_size(c.ctx.kernel().regs[dst].type) == 8;
  uint64_t* out = c.warp.reg(dst);
  for (uint64_t m = c.exec_mask; m; m &= m - 1) {
    const unsigned lane = first_lane(m);
    uint64_t v = 0;
    std::memcpy(&v, buf + addrs[lane], size);  // little-endian host, as the rest of the engine
    if (widen) v = static_cast<uint64_t>(static_cast<int64_t>(static_cast<int32_t>(v)));
    out[lane] = v;
  }
}

void cb_store(ExtensionCall& c, Dir dir) {
  Unit& u = unit_of(c);
  if (!c.exec_mask) return;
  uint8_t* buf = link_buffer(c, u, dir);
  const unsigned size = ir::type_size(c.inst.type);
  const uint64_t* addrs = cb_addresses(c, u, c.inst.ops[0], size);
  const ir::Operand& value = c.inst.ops[1];
  const uint64_t* in = value.kind == ir::OperandKind::Reg ? c.warp.reg(value.reg) : nullptr;
  for (uint64_t m = c.exec_mask; m; m &= m - 1) {
    const unsigned lane = first_lane(m);
    const uint64_t v = in ? in[lane] : value.imm;
    std::memcpy(buf + addrs[lane], &v, size);
  }
}

// A warp arrives at bar.blocksync with all its live threads (as at bar.sync)
// and waits; the launch driver's Fabric::poll makes the unit arrive once all
// its warps have.
void blocksync(ExtensionCall& c, SyncKind kind) {
  Unit& u = unit_of(c);
  if (!c.exec_mask) return;
  const unsigned lane = first_lane(c.exec_mask);
  if (kind != SyncKind::Global) {
    const Dir dir = sync_dir(kind);
    if (u.link[static_cast<uint8_t>(dir)] < 0)
      throw Error(ErrorKind::Fault, where(c, lane) + ": " + u.name + " has no " + dir_name(dir) + " link to synchronise on");
  }
  if (u.warp_kind != SyncKind::None && u.warp_kind != kind) {
    throw Error(ErrorKind::Ptx, where(c, lane) + ": the warps of " + u.name + " reach different synchronisations (" +
                                    sync_name(u.warp_kind) + " at line " + std::to_string(u.warp_line) + " and " +
                                    sync_name(kind) + "); bar.blocksync is CTA-wide");
  }
  if (u.warp_kind == SyncKind::None) {
    u.warp_kind = kind;
    u.warp_line = c.inst.loc.line;
  }
  const uint32_t pc = c.warp.pc();
  c.warp.advance();
  c.control_handled = true;
  c.warp.set_waiting(Cta::kExternalBarrier, c.exec_mask, -1, pc);
  c.record.waiting = true;
}

uint32_t sreg_value(const Unit& u, ext::SpuReg reg) {
  switch (reg) {
    case ext::SpuReg::IsIu: return u.is_iu ? 1 : 0;
    case ext::SpuReg::IuDir: return u.is_iu ? static_cast<uint32_t>(u.iu_dir) : 4;
    case ext::SpuReg::IuId: return u.is_iu ? u.lane : 0;
    case ext::SpuReg::RegViu: return u.viu ? 1 : 0;  // 0 wherever kernel code runs: VIUs run the runtime's code
    case ext::SpuReg::RegPassX: return u.pass_x;
    case ext::SpuReg::RegPassY: return u.pass_y;
    case ext::SpuReg::RegNPassX: return u.npass_x;
    case ext::SpuReg::RegNPassY: return u.npass_y;
    case ext::SpuReg::Count: break;
  }
  return 0;
}

void sreg(ExtensionCall& c) {
  const Unit& u = unit_of(c);
  const uint32_t v = sreg_value(u, static_cast<ext::SpuReg>(c.inst.ops[1].imm));
  uint64_t* out = c.warp.reg(c.inst.ops[0].reg);
  for (uint64_t m = c.exec_mask; m; m &= m - 1) out[first_lane(m)] = v;
}

// `ld.cb`/`st.cb` without a usable direction never parse; executing one means
// a registry was built without the checks.
void misdirected(ExtensionCall& c) {
  throw Error(ErrorKind::Internal, where(c, 0) + ": communication-buffer access without a direction");
}

}  // namespace

const ExtensionHandler* semantics(uint16_t ext_id) {
  static const ExtensionHandler kHandlers[] = {
      misdirected,                                          // kLdCbAny
      [](ExtensionCall& c) { cb_load(c, Dir::North); },     // kLdCbNorth
      [](ExtensionCall& c) { cb_load(c, Dir::West); },      // kLdCbWest
      misdirected,                                          // kStCbAny
      [](ExtensionCall& c) { cb_store(c, Dir::South); },    // kStCbSouth
      [](ExtensionCall& c) { cb_store(c, Dir::East); },     // kStCbEast
      [](ExtensionCall& c) { blocksync(c, SyncKind::Global); },
      [](ExtensionCall& c) { blocksync(c, SyncKind::North); },
      [](ExtensionCall& c) { blocksync(c, SyncKind::West); },
      [](ExtensionCall& c) { blocksync(c, SyncKind::South); },
      [](ExtensionCall& c) { blocksync(c, SyncKind::East); },
      sreg,                                                 // kSreg
  };
  static_assert(sizeof(kHandlers) / sizeof(kHandlers[0]) == ext::kLast - ext::kFirst + 1);
  if (!ext::is_spu_instruction(ext_id)) return nullptr;
  return &kHandlers[ext_id - ext::kFirst];
}

}  // namespace simtlm::functional::spu
