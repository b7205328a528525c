// Memory-space semantics: ld/st/atom/red over global, const, shared, local,
// param and generic addresses; cvta and isspacep. Every lane's access is
// checked (alignment to the full access size, bounds of its space) before any
// lane reads or writes, so a faulting store leaves memory unchanged.
#include <cmath>
#include <cstring>
#include <sstream>

#include "functional/address_wrap.h"
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
  os << what << " " << ir::space_name(space) << " " << access_word(kind) << " of "
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

// Where the lanes' bytes are on the host. Affine: lane l's bytes start at
// base + l * stride + (address - abase) (one allocation/buffer holds all
// lanes; stride is the local-frame size for local memory, else 0).
// Otherwise warp.host_pointers()[l].
struct Resolved {
  bool affine = true;
  uint8_t* base = nullptr;
  uint64_t abase = 0;
  uint64_t stride = 0;
};

// Bounded buffer: [0, size) of `base` (shared memory, one local frame, params).
[[noreturn]] void fault_bounds(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx,
                               uint64_t exec, unsigned bytes, Access kind, uint64_t size,
                               const std::string& detail) {
  const uint64_t* addrs = warp.addresses();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t a = addrs[l];
    if (a > size || bytes > size - a) fault("out-of-bounds", kind, d.space, a, bytes, detail, ctx, cta, warp, d, l);
  }
  throw Error(ErrorKind::Internal, "fault_bounds without a faulting lane");
}

// Generic addresses: classify every lane by window, pointer per lane.
void resolve_generic(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                     unsigned bytes, Access kind) {
  const uint64_t* addrs = warp.addresses();
  uint8_t** hp = warp.host_pointers();
  ExecRecord& rec = warp.record();
  GlobalMemory& mem = ctx.memory();
  const uint64_t shared_size = cta.shared_size(), local_size = cta.local_size();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    const uint64_t a = addrs[l];
    uint8_t* p = nullptr;
    if (in_window(a, kSharedWindowBase)) {
      rec.shared_lanes |= 1ull << l;
      const uint64_t off = a - kSharedWindowBase;
      if (off > shared_size || bytes > shared_size - off) {
        fault("out-of-bounds", kind, StateSpace::Shared, a, bytes,
              "the CTA's shared memory is " + std::to_string(shared_size) + " bytes", ctx, cta, warp, d, l);
      }
      p = cta.shared() + off;
    } else if (in_window(a, kLocalWindowBase)) {
      rec.local_lanes |= 1ull << l;
      const uint64_t off = a - kLocalWindowBase;
      if (off > local_size || bytes > local_size - off) {
        fault("out-of-bounds", kind, StateSpace::Local, a, bytes,
              "the thread's local frame is " + std::to_string(local_size) + " bytes", ctx, cta, warp, d, l);
      }
      p = cta.local(warp.first_thread() + l) + off;
    } else {
      p = mem.translate(a, bytes);
      if (!p) fault("out-of-bounds", kind, StateSpace::Global, a, bytes, "no allocation holds it", ctx, cta, warp, d, l);
    }
    hp[l] = p;
  }
}

// The load fast path's wrap of one lane: reads it and returns true when its
// 32-bit address is in bounds and aligned (AddrOperand::wrap32).
template <unsigned E, bool PerThread>
__attribute__((noinline, cold)) bool read_wrapped_lane(unsigned l, uint64_t* addrs, uint64_t* out, const uint8_t* hbase,
                                                       uint64_t size, uint64_t limit, uint64_t reject) {
  if (size < E || wrap_bad_lanes_to_32_bits(1ull << l, addrs, limit, reject) != 0) return false;
  out[l] = read_le(hbase + (PerThread ? l * size : 0) + addrs[l], E);
  return true;
}


// Computes every executing lane's address (recorded in the warp's record),
// checks alignment and bounds, and says where the bytes are. Throws on the
// first bad lane (in lane order) before anything is accessed.
Resolved resolve(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                 unsigned bytes, Access kind) {
  ExecRecord& rec = warp.record();
  uint64_t* addrs = warp.addresses();
  rec.space = d.space;
  rec.access_bytes = bytes;
  rec.addresses = addrs;

  // Addresses, their range and alignment in one pass.
  const uint64_t align_mask = bytes - 1;  // access sizes are powers of two
  const uint64_t disp = d.addr.disp;
  uint64_t lo = ~0ull, hi = 0, misaligned = 0;
  if (d.addr.has_reg) {
    const uint64_t* base = warp.regs() + d.addr.reg_off;
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      const uint64_t a = base[l] + disp;
      addrs[l] = a;
      lo = a < lo ? a : lo;
      hi = a > hi ? a : hi;
      misaligned |= a;
    }
    if (d.addr.wrap32 && (hi >> 32) != 0) wrap_to_32_bits(exec, addrs, lo, hi);
  } else {
    for (uint64_t m = exec; m; m &= m - 1) addrs[first_lane(m)] = disp;
    lo = hi = misaligned = disp;
  }
  if (misaligned & align_mask) {
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      if (addrs[l] & align_mask) fault("misaligned", kind, d.space, addrs[l], bytes, "", ctx, cta, warp, d, l);
    }
  }

  Resolved r;
  switch (d.space) {
    case StateSpace::Global:
    case StateSpace::Const: {
      GlobalMemory& mem = ctx.memory();
      if (hi - lo < (1ull << 32)) {
        if (uint8_t* p = mem.translate(lo, hi - lo + bytes)) {  // one allocation holds every lane
          r.base = p;
          r.abase = lo;
          return r;
        }
      }
      r.affine = false;
      uint8_t** hp = warp.host_pointers();
      for (uint64_t m = exec; m; m &= m - 1) {
        const unsigned l = first_lane(m);
        uint8_t* p = mem.translate(addrs[l], bytes);
        if (!p) fault("out-of-bounds", kind, d.space, addrs[l], bytes, "no allocation holds it", ctx, cta, warp, d, l);
        hp[l] = p;
      }
      return r;
    }
    case StateSpace::Shared: {
      const uint64_t size = cta.shared_size();
      if (hi > size || bytes > size - hi) {
        fault_bounds(d, warp, cta, ctx, exec, bytes, kind, size,
                     "the CTA's shared memory is " + std::to_string(size) + " bytes");
      }
      r.base = cta.shared();
      return r;
    }
    case StateSpace::Local: {
      const uint64_t size = cta.local_size();
      if (hi > size || bytes > size - hi) {
        fault_bounds(d, warp, cta, ctx, exec, bytes, kind, size,
                     "the thread's local frame is " + std::to_string(size) + " bytes");
      }
      r.base = cta.local(warp.first_thread());
      r.stride = size;
      return r;
    }
    case StateSpace::Param: {
      const auto& params = ctx.params();
      if (kind != Access::Load) {
        const unsigned l = first_lane(exec);
        fault("forbidden", kind, d.space, addrs[l], bytes, "kernel parameters are read-only", ctx, cta, warp, d, l);
      }
      if (hi > params.size() || bytes > params.size() - hi) {
        fault_bounds(d, warp, cta, ctx, exec, bytes, kind, params.size(),
                     "the parameter buffer is " + std::to_string(params.size()) + " bytes");
      }
      r.base = const_cast<uint8_t*>(params.data());
      return r;
    }
    case StateSpace::Generic:
      resolve_generic(d, warp, cta, ctx, exec, bytes, kind);
      r.affine = false;
      return r;
    default: {
      const unsigned l = first_lane(exec);
      fault("unsupported", kind, d.space, addrs[l], bytes, "state space not addressable", ctx, cta, warp, d, l);
    }
  }
}

inline uint8_t* host(const Resolved& r, uint8_t* const* hp, const uint64_t* addrs, unsigned l) {
  return r.affine ? r.base + l * r.stride + (addrs[l] - r.abase) : hp[l];
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

template <unsigned E, bool Affine>
void load_elements(const DecodedInst& d, Warp& warp, uint64_t exec, const Resolved& r) {
  uint8_t* const* hp = warp.host_pointers();
  const uint64_t* addrs = warp.addresses();
  uint64_t* regs = warp.regs();
  for (unsigned i = 0; i < d.vec; ++i) {
    if (d.dst[i] == kNoDst) continue;
    uint64_t* out = regs + d.dst[i];
    const unsigned rbytes = d.dst_bytes[i] ? d.dst_bytes[i] : E;
    auto at = [&](unsigned l) -> const uint8_t* {
      return (Affine ? r.base + l * r.stride + (addrs[l] - r.abase) : hp[l]) + i * E;
    };
    if (d.sign_extend && rbytes > E) {
      const uint64_t rmask = low_mask(rbytes);
      for (uint64_t m = exec; m; m &= m - 1) {
        const unsigned l = first_lane(m);
        out[l] = sign_extend(read_le(at(l), E), E) & rmask;
      }
    } else {
      for (uint64_t m = exec; m; m &= m - 1) {
        const unsigned l = first_lane(m);
        out[l] = read_le(at(l), E);
      }
    }
  }
}

template <unsigned E>
void load_as(const DecodedInst& d, Warp& warp, uint64_t exec, const Resolved& r) {
  if (r.affine) {
    load_elements<E, true>(d, warp, exec, r);
  } else {
    load_elements<E, false>(d, warp, exec, r);
  }
}

// Fused fast path for the most frequent loads: scalar, register address, in
// shared/local/param memory, no sign extension. One pass per lane: address,
// bounds/alignment check, read, write. A bad lane is reported directly (the
// lanes before it were good), so a destination that is also the address
// register cannot confuse the report.
template <unsigned E, bool PerThread>
void load_buffer_fast(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                      uint8_t* hbase, uint64_t size, const char* what) {
  ExecRecord& rec = warp.record();
  uint64_t* addrs = warp.addresses();
  rec.space = d.space;
  rec.access_bytes = E;
  rec.addresses = addrs;
  const uint64_t* base = warp.regs() + d.addr.reg_off;
  uint64_t* out = d.dst[0] == kNoDst ? warp.scratch(kTempSlot) : warp.regs() + d.dst[0];
  const uint64_t disp = d.addr.disp;
  // a > limit covers "beyond the end"; a buffer too small for one element
  // (no shared memory at all, say) rejects every lane before the loops, as
  // no limit can reject address 0.
  const uint64_t limit = size >= E ? size - E : 0;
  const uint64_t reject = E - 1;
  // Out of line and cold: inlined into `lane`, the fault report made it too
  // big to be inlined into the loops below under link-time optimisation
  // (three times the host instructions for sgemm's shared loads).
  auto bad = [&](unsigned l, uint64_t a) __attribute__((noinline, cold)) {
    if (a & (E - 1)) fault("misaligned", Access::Load, d.space, a, E, "", ctx, cta, warp, d, l);
    fault("out-of-bounds", Access::Load, d.space, a, E, what + std::to_string(size) + " bytes", ctx, cta,
          warp, d, l);
  };
  auto lane = [&](unsigned l) {
    const uint64_t a = base[l] + disp;
    addrs[l] = a;
    if (__builtin_expect((a > limit) | ((a & reject) != 0), 0)) {
      // Only the locals' values go to the wrap, so none escapes and the loop
      // keeps them in registers; `bad` never returns.
      if (!d.addr.wrap32 || !read_wrapped_lane<E, PerThread>(l, addrs, out, hbase, size, limit, reject)) bad(l, a);
      return;
    }
    out[l] = read_le(hbase + (PerThread ? l * size : 0) + a, E);
  };
  if (__builtin_expect(size < E, 0) && exec != 0) bad(first_lane(exec), base[first_lane(exec)] + disp);
  const unsigned w = warp.width();
  if (exec == (w >= 64 ? ~0ull : (1ull << w) - 1)) {
    for (unsigned l = 0; l < w; ++l) lane(l);
  } else {
    for (uint64_t m = exec; m; m &= m - 1) lane(first_lane(m));
  }
}

template <unsigned E>
void load_fast(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  switch (d.space) {
    case StateSpace::Shared:
      load_buffer_fast<E, false>(d, warp, cta, ctx, exec, cta.shared(), cta.shared_size(),
                                 "the CTA's shared memory is ");
      return;
    case StateSpace::Local:
      load_buffer_fast<E, true>(d, warp, cta, ctx, exec, cta.local(warp.first_thread()), cta.local_size(),
                                "the thread's local frame is ");
      return;
    default:
      load_buffer_fast<E, false>(d, warp, cta, ctx, exec, const_cast<uint8_t*>(ctx.params().data()),
                                 ctx.params().size(), "the parameter buffer is ");
      return;
  }
}

void exec_load(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  if (d.fast_load) {
    switch (elem) {
      case 1: load_fast<1>(d, warp, cta, ctx, exec); return;
      case 2: load_fast<2>(d, warp, cta, ctx, exec); return;
      case 4: load_fast<4>(d, warp, cta, ctx, exec); return;
      default: load_fast<8>(d, warp, cta, ctx, exec); return;
    }
  }
  const Resolved r = resolve(d, warp, cta, ctx, exec, elem * d.vec, Access::Load);
  switch (elem) {
    case 1: load_as<1>(d, warp, exec, r); break;
    case 2: load_as<2>(d, warp, exec, r); break;
    case 4: load_as<4>(d, warp, exec, r); break;
    default: load_as<8>(d, warp, exec, r); break;
  }
}

// Fast path for scalar stores with a register address into shared/local
// memory: every lane is checked before any lane writes.
template <unsigned E, bool PerThread>
void store_buffer_fast(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec,
                       uint8_t* hbase, uint64_t size, const char* what) {
  ExecRecord& rec = warp.record();
  uint64_t* addrs = warp.addresses();
  rec.space = d.space;
  rec.access_bytes = E;
  rec.addresses = addrs;
  const uint64_t* base = warp.regs() + d.addr.reg_off;
  const uint64_t* src = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t disp = d.addr.disp;
  const uint64_t limit = size >= E ? size - E : 0;
  const uint64_t reject = E - 1;
  const unsigned w = warp.width();
  const bool full = exec == (w >= 64 ? ~0ull : (1ull << w) - 1);
  uint64_t bad = 0;
  if (full) {
    for (unsigned l = 0; l < w; ++l) {
      const uint64_t a = base[l] + disp;
      addrs[l] = a;
      bad |= static_cast<uint64_t>((a > limit) | ((a & reject) != 0)) << l;
    }
  } else {
    for (uint64_t m = exec; m; m &= m - 1) {
      const unsigned l = first_lane(m);
      const uint64_t a = base[l] + disp;
      addrs[l] = a;
      bad |= static_cast<uint64_t>((a > limit) | ((a & reject) != 0)) << l;
    }
  }
  if (size < E) bad = exec;  // no element fits (no limit can reject address 0)
  else if (bad && d.addr.wrap32) bad = wrap_bad_lanes_to_32_bits(bad, addrs, limit, reject);
  if (bad) {
    const unsigned l = first_lane(bad);
    const uint64_t a = addrs[l];
    if (a & (E - 1)) fault("misaligned", Access::Store, d.space, a, E, "", ctx, cta, warp, d, l);
    fault("out-of-bounds", Access::Store, d.space, a, E, what + std::to_string(size) + " bytes", ctx, cta,
          warp, d, l);
  }
  auto lane = [&](unsigned l) { write_le(hbase + (PerThread ? l * size : 0) + addrs[l], src[l], E); };
  if (full) {
    for (unsigned l = 0; l < w; ++l) lane(l);
  } else {
    for (uint64_t m = exec; m; m &= m - 1) lane(first_lane(m));
  }
}

template <unsigned E>
void store_fast(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  if (d.space == StateSpace::Shared) {
    store_buffer_fast<E, false>(d, warp, cta, ctx, exec, cta.shared(), cta.shared_size(),
                                "the CTA's shared memory is ");
  } else {
    store_buffer_fast<E, true>(d, warp, cta, ctx, exec, cta.local(warp.first_thread()), cta.local_size(),
                               "the thread's local frame is ");
  }
}

void exec_store(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  if (d.fast_store) {
    switch (elem) {
      case 1: store_fast<1>(d, warp, cta, ctx, exec); return;
      case 2: store_fast<2>(d, warp, cta, ctx, exec); return;
      case 4: store_fast<4>(d, warp, cta, ctx, exec); return;
      default: store_fast<8>(d, warp, cta, ctx, exec); return;
    }
  }
  const uint64_t* src[4] = {nullptr, nullptr, nullptr, nullptr};
  for (unsigned i = 0; i < d.vec; ++i) src[i] = src_lanes(d.src[i], i, warp, cta, ctx);
  const Resolved r = resolve(d, warp, cta, ctx, exec, elem * d.vec, Access::Store);
  uint8_t* const* hp = warp.host_pointers();
  const uint64_t* addrs = warp.addresses();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    uint8_t* p = host(r, hp, addrs, l);
    for (unsigned i = 0; i < d.vec; ++i) write_le(p + i * elem, src[i][l], elem);
  }
}

void exec_atomic(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const unsigned elem = d.elem_bytes;
  const uint64_t* b = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t* c = d.num_src > 1 ? src_lanes(d.src[1], 1, warp, cta, ctx) : b;
  const Resolved r = resolve(d, warp, cta, ctx, exec, elem, Access::Atomic);
  uint8_t* const* hp = warp.host_pointers();
  const uint64_t* addrs = warp.addresses();
  uint64_t* out = d.dst[0] == kNoDst ? nullptr : warp.regs() + d.dst[0];
  const ir::AtomOp op = d.inst->atom;
  const ir::DataType t = d.inst->type;
  // Lane order; results written after all lanes read their operands (the
  // destination may be the register of b or c).
  uint64_t* old_values = warp.scratch(kTempSlot);
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    uint8_t* p = host(r, hp, addrs, l);
    const uint64_t old = read_le(p, elem);
    write_le(p, atomic_apply(op, t, old, b[l], c[l]), elem);
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
