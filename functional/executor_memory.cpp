// Memory-space semantics: ld/st/atom/red over global, const, shared, local,
// param and generic addresses; cvta and isspacep. Every lane's access is
// checked (alignment to the full access size, bounds of its space) before any
// lane reads or writes, so a faulting store leaves memory unchanged.
#include <cmath>
#include <cstring>
#include <sstream>

#include "functional/executor_internal.h"
#include "simtlm/error.h"

namespace simtlm::functional::detail {

namespace {

using ir::StateSpace;

enum class Access { Load, Store, Atomic };

inline unsigned first_lane(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }

inline bool in_window(uint64_t a, uint64_t base) { return a - base < kWindowSize; }

const char* access_word(Access a) {
  switch (a) {
    case Access::Load: return "load";
    case Access::Store: return "store";
    case Access::Atomic: return "atomic access";
  }
  return "access";
}

[[noreturn]] void fault(const char* what, Access kind, StateSpace space, uint64_t addr, unsigned bytes,
                        const std::string& detail, const LaunchContext& ctx, const Cta& cta,
                        const Warp& warp, const DecodedInst& d, unsigned lane) {
  std::ostringstream os;
  os << "device fault: " << what << " " << ir::space_name(space) << " " << access_word(kind) << " of "
     << bytes << " bytes at address 0x" << std::hex << addr << std::dec;
  if (!detail.empty()) os << " (" << detail << ")";
  os << " in " << describe_lane(ctx, cta, warp, d.inst, lane);
  throw Error(ErrorKind::Fault, os.str());
}

inline uint64_t read_le(const uint8_t* p, unsigned bytes) {
  switch (bytes) {
    case 1: return *p;
    case 2: { uint16_t v; std::memcpy(&v, p, 2); return v; }
    case 4: { uint32_t v; std::memcpy(&v, p, 4); return v; }
    default: { uint64_t v; std::memcpy(&v, p, 8); return v; }
  }
}

inline void write_le(uint8_t* p, uint64_t v, unsigned bytes) {
  switch (bytes) {
    case 1: *p = static_cast<uint8_t>(v); return;
    case 2: { uint16_t x = static_cast<uint16_t>(v); std::memcpy(p, &x, 2); return; }
    case 4: { uint32_t x = static_cast<uint32_t>(v); std::memcpy(p, &x, 4); return; }
    default: std::memcpy(p, &v, 8); return;
  }
}

inline uint64_t low_mask(unsigned bytes) { return bytes >= 8 ? ~0ull : ((1ull << (bytes * 8)) - 1); }

// Per-space address translation. Each returns the host pointer of
// [off, off + bytes) or nullptr when it is out of bounds; `detail` explains
// the bound for the fault report.
struct GlobalSpace {
  GlobalMemory& mem;
  uint8_t* at(uint64_t a, unsigned bytes, unsigned) const { return mem.translate(a, bytes); }
  std::string detail() const { return "no allocation holds it"; }
};
struct SharedSpace {
  uint8_t* base;
  uint64_t size;
  uint8_t* at(uint64_t a, unsigned bytes, unsigned) const {
    return a <= size && bytes <= size - a ? base + a : nullptr;
  }
  std::string detail() const { return "the CTA has " + std::to_string(size) + " bytes of shared memory"; }
};
struct LocalSpace {
  Cta& cta;
  uint32_t first_thread;
  uint64_t size;
  uint8_t* at(uint64_t a, unsigned bytes, unsigned lane) const {
    return a <= size && bytes <= size - a ? cta.local(first_thread + lane) + a : nullptr;
  }
  std::string detail() const { return "the thread's local frame is " + std::to_string(size) + " bytes"; }
};
struct ParamSpace {
  const std::vector<uint8_t>& params;
  uint8_t* at(uint64_t a, unsigned bytes, unsigned) const {
    return a <= params.size() && bytes <= params.size() - a ? const_cast<uint8_t*>(params.data()) + a
                                                            : nullptr;
  }
  std::string detail() const { return "the parameter buffer is " + std::to_string(params.size()) + " bytes"; }
};

// Computes every executing lane's address, checks alignment and bounds in
// `space` and stores the lane's host pointer. Throws on the first bad lane
// (in lane order) before anything is accessed.
template <class Space>
void resolve_in(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                unsigned bytes, Access kind, const Space& space) {
  uint64_t* addrs = warp.addresses();
  uint8_t** hp = warp.host_pointers();
  const uint64_t align_mask = bytes - 1;  // access sizes are powers of two
  const uint64_t disp = d.addr.disp;
  if (d.addr.has_reg) {
    const uint64_t* base = warp.regs() + d.addr.reg_off;
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      const uint64_t a = base[l] + disp;
      addrs[l] = a;
      uint8_t* p = space.at(a, bytes, l);
      if ((a & align_mask) || !p) {
        if (a & align_mask) fault("misaligned", kind, d.space, a, bytes, "", ctx, cta, warp, d, l);
        fault("out-of-bounds", kind, d.space, a, bytes, space.detail(), ctx, cta, warp, d, l);
      }
      hp[l] = p;
    }
  } else {
    // Uniform address (symbol or absolute): check once.
    const unsigned first = first_lane(exec);
    uint8_t* p0 = space.at(disp, bytes, first);
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      addrs[l] = disp;
      uint8_t* p = l == first ? p0 : space.at(disp, bytes, l);
      if ((disp & align_mask) || !p) {
        if (disp & align_mask) fault("misaligned", kind, d.space, disp, bytes, "", ctx, cta, warp, d, l);
        fault("out-of-bounds", kind, d.space, disp, bytes, space.detail(), ctx, cta, warp, d, l);
      }
      hp[l] = p;
    }
  }
}

// Generic addresses: classify every lane by window.
void resolve_generic(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                     unsigned bytes, Access kind) {
  uint64_t* addrs = warp.addresses();
  uint8_t** hp = warp.host_pointers();
  ExecRecord& rec = warp.record();
  const uint64_t* base = d.addr.has_reg ? warp.regs() + d.addr.reg_off : nullptr;
  const uint64_t align_mask = bytes - 1;
  const GlobalSpace global{ctx.memory()};
  const SharedSpace shared{cta.shared(), cta.shared_size()};
  const LocalSpace local{cta, warp.first_thread(), cta.local_size()};
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t a = base ? base[l] + d.addr.disp : d.addr.disp;
    addrs[l] = a;
    if (a & align_mask) fault("misaligned", kind, d.space, a, bytes, "", ctx, cta, warp, d, l);
    uint8_t* p;
    if (in_window(a, kSharedWindowBase)) {
      rec.shared_lanes |= 1ull << l;
      p = shared.at(a - kSharedWindowBase, bytes, l);
      if (!p) fault("out-of-bounds", kind, StateSpace::Shared, a, bytes, shared.detail(), ctx, cta, warp, d, l);
    } else if (in_window(a, kLocalWindowBase)) {
      rec.local_lanes |= 1ull << l;
      p = local.at(a - kLocalWindowBase, bytes, l);
      if (!p) fault("out-of-bounds", kind, StateSpace::Local, a, bytes, local.detail(), ctx, cta, warp, d, l);
    } else {
      p = global.at(a, bytes, l);
      if (!p) fault("out-of-bounds", kind, StateSpace::Global, a, bytes, global.detail(), ctx, cta, warp, d, l);
    }
    hp[l] = p;
  }
}

void resolve(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
             unsigned bytes, Access kind) {
  ExecRecord& rec = warp.record();
  rec.space = d.space;
  rec.access_bytes = bytes;
  rec.addresses = warp.addresses();
  switch (d.space) {
    case StateSpace::Global:
    case StateSpace::Const:
      resolve_in(d, warp, cta, ctx, exec, bytes, kind, GlobalSpace{ctx.memory()});
      return;
    case StateSpace::Shared:
      resolve_in(d, warp, cta, ctx, exec, bytes, kind, SharedSpace{cta.shared(), cta.shared_size()});
      return;
    case StateSpace::Local:
      resolve_in(d, warp, cta, ctx, exec, bytes, kind, LocalSpace{cta, warp.first_thread(), cta.local_size()});
      return;
    case StateSpace::Param:
      if (kind != Access::Load) {
        const unsigned l = first_lane(exec);
        fault("forbidden", kind, d.space, d.addr.has_reg ? warp.regs()[d.addr.reg_off + l] + d.addr.disp : d.addr.disp,
              bytes, "kernel parameters are read-only", ctx, cta, warp, d, l);
      }
      resolve_in(d, warp, cta, ctx, exec, bytes, kind, ParamSpace{ctx.params()});
      return;
    case StateSpace::Generic:
      resolve_generic(d, warp, cta, ctx, exec, bytes, kind);
      return;
    default: {
      const unsigned l = first_lane(exec);
      fault("unsupported", kind, d.space, d.addr.disp, bytes, "state space not addressable", ctx, cta, warp, d, l);
    }
  }
}

inline uint64_t sign_extend(uint64_t v, unsigned from_bytes) {
  const unsigned shift = 64 - from_bytes * 8;
  return static_cast<uint64_t>(static_cast<int64_t>(v << shift) >> shift);
}

template <typename F>
inline F as_float(uint64_t bits);
template <>
inline float as_float<float>(uint64_t bits) {
  uint32_t b = static_cast<uint32_t>(bits);
  float f;
  std::memcpy(&f, &b, 4);
  return f;
}
template <>
inline double as_float<double>(uint64_t bits) {
  double f;
  std::memcpy(&f, &bits, 8);
  return f;
}
inline uint64_t float_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, 4);
  return b;
}
inline uint64_t float_bits(double f) {
  uint64_t b;
  std::memcpy(&b, &f, 8);
  return b;
}

// New memory value of an atomic `op` on `old` with operands b, c (raw bits).
uint64_t atomic_apply(ir::AtomOp op, ir::DataType t, uint64_t old, uint64_t b, uint64_t c) {
  const unsigned size = ir::type_size(t);
  const uint64_t mask = low_mask(size);
  old &= mask;
  b &= mask;
  c &= mask;
  const bool is_signed = ir::is_signed(t);
  switch (op) {
    case ir::AtomOp::Add:
      if (t == ir::DataType::F32) return float_bits(as_float<float>(old) + as_float<float>(b));
      if (t == ir::DataType::F64) return float_bits(as_float<double>(old) + as_float<double>(b));
      return (old + b) & mask;
    case ir::AtomOp::Min:
    case ir::AtomOp::Max: {
      const bool want_min = op == ir::AtomOp::Min;
      if (t == ir::DataType::F32) {
        const float x = as_float<float>(old), y = as_float<float>(b);
        return float_bits(want_min ? std::fmin(x, y) : std::fmax(x, y));
      }
      if (t == ir::DataType::F64) {
        const double x = as_float<double>(old), y = as_float<double>(b);
        return float_bits(want_min ? std::fmin(x, y) : std::fmax(x, y));
      }
      bool less;
      if (is_signed) {
        less = static_cast<int64_t>(sign_extend(b, size)) < static_cast<int64_t>(sign_extend(old, size));
      } else {
        less = b < old;
      }
      return (want_min ? less : !less && b != old) ? b : old;
    }
    case ir::AtomOp::Inc:
      return old >= b ? 0 : (old + 1) & mask;
    case ir::AtomOp::Dec:
      return (old == 0 || old > b) ? b : old - 1;
    case ir::AtomOp::Cas:
      return old == b ? c : old;
    case ir::AtomOp::Exch:
      return b;
    case ir::AtomOp::And:
      return old & b;
    case ir::AtomOp::Or:
      return old | b;
    case ir::AtomOp::Xor:
      return old ^ b;
    default:
      return old;
  }
}

}  // namespace

template <unsigned E>
void load_elements(const DecodedInst& d, Warp& warp, uint64_t exec) {
  uint8_t** hp = warp.host_pointers();
  uint64_t* regs = warp.regs();
  for (unsigned i = 0; i < d.vec; ++i) {
    if (d.dst[i] == kNoDst) continue;
    uint64_t* out = regs + d.dst[i];
    const unsigned rbytes = d.dst_bytes[i] ? d.dst_bytes[i] : E;
    if (d.sign_extend && rbytes > E) {
      const uint64_t rmask = low_mask(rbytes);
      for (uint64_t m = exec; m; m &= m - 1) {
        const unsigned l = first_lane(m);
        out[l] = sign_extend(read_le(hp[l] + i * E, E), E) & rmask;
      }
    } else {
      for (uint64_t m = exec; m; m &= m - 1) {
        const unsigned l = first_lane(m);
        out[l] = read_le(hp[l] + i * E, E);
      }
    }
  }
}

void exec_load(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  resolve(d, warp, cta, ctx, exec, elem * d.vec, Access::Load);
  switch (elem) {
    case 1: load_elements<1>(d, warp, exec); break;
    case 2: load_elements<2>(d, warp, exec); break;
    case 4: load_elements<4>(d, warp, exec); break;
    default: load_elements<8>(d, warp, exec); break;
  }
}

void exec_store(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  const uint64_t* src[4] = {nullptr, nullptr, nullptr, nullptr};
  for (unsigned i = 0; i < d.vec; ++i) src[i] = src_lanes(d.src[i], i, warp, cta, ctx);
  resolve(d, warp, cta, ctx, exec, elem * d.vec, Access::Store);
  uint8_t** hp = warp.host_pointers();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    for (unsigned i = 0; i < d.vec; ++i) write_le(hp[l] + i * elem, src[i][l], elem);
  }
}

void exec_atomic(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  const uint64_t* b = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t* c = d.num_src > 1 ? src_lanes(d.src[1], 1, warp, cta, ctx) : b;
  resolve(d, warp, cta, ctx, exec, elem, Access::Atomic);
  uint8_t** hp = warp.host_pointers();
  uint64_t* out = d.dst[0] == kNoDst ? nullptr : warp.regs() + d.dst[0];
  const ir::AtomOp op = d.inst->atom;
  const ir::DataType t = d.inst->type;
  // Read operands first: the destination may alias b or c in later lanes' view.
  uint64_t* old_values = warp.scratch(kTempSlot);
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t old = read_le(hp[l], elem);
    write_le(hp[l], atomic_apply(op, t, old, b[l], c[l]), elem);
    old_values[l] = old;
  }
  if (out) {
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      out[l] = old_values[l];
    }
  }
}

void exec_cvta(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* s = src_lanes(d.src[0], 0, warp, cta, ctx);
  if (d.dst[0] == kNoDst) return;
  uint64_t* out = warp.regs() + d.dst[0];
  const unsigned size = ir::type_size(d.inst->type);
  const uint64_t mask = low_mask(size ? size : 8);
  uint64_t delta = 0;
  if (d.space == StateSpace::Shared) delta = kSharedWindowBase;
  if (d.space == StateSpace::Local) delta = kLocalWindowBase;
  const bool to = d.inst->cvta_to;
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    out[l] = (to ? s[l] - delta : s[l] + delta) & mask;
  }
}

void exec_isspacep(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* s = src_lanes(d.src[0], 0, warp, cta, ctx);
  if (d.dst[0] == kNoDst) return;
  uint64_t* out = warp.regs() + d.dst[0];
  const ir::Module& module = ctx.module();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t a = s[l];
    const bool shared = in_window(a, kSharedWindowBase);
    const bool local = in_window(a, kLocalWindowBase);
    bool r = false;
    switch (d.space) {
      case StateSpace::Global: r = !shared && !local; break;
      case StateSpace::Shared: r = shared; break;
      case StateSpace::Local: r = local; break;
      case StateSpace::Const:
        for (size_t v = 0; v < module.vars.size() && !r; ++v) {
          const ir::Variable& var = module.vars[v];
          if (var.space != StateSpace::Const) continue;
          const uint64_t base = ctx.device_address(static_cast<uint32_t>(v));
          r = base != 0 && a >= base && a - base < var.size;
        }
        break;
      default: r = false; break;
    }
    out[l] = r ? 1 : 0;
  }
}

}  // namespace simtlm::functional::detail
