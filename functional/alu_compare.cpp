// Comparison and selection: setp, set, slct (PTX ISA "Comparison and Selection
// Instructions"). setp writes p = (a cmp b) BOOLOP c and, for the `p|q` form,
// q = !(a cmp b) BOOLOP c; for .f16x2/.bf16x2, p gets the lower halves' result
// and q the upper halves'. Ordered float comparisons are false when an operand
// is NaN, the unordered ones (equ, neu, ltu, ...) are true; num/nan test for NaN.
#include <type_traits>

#include "functional/alu_detail.h"
#include "functional/alu_fp.h"

namespace simtlm::functional::alu_detail {
namespace {

using ir::BoolOp;
using ir::CmpOp;

template <CmpOp C, class V>
inline bool compare(V a, V b) {
  if constexpr (std::is_floating_point_v<V>) {
    const bool un = a != a || b != b;
    switch (C) {
      case CmpOp::Eq: return a == b;
      case CmpOp::Ne: return !un && a != b;
      case CmpOp::Lt: return a < b;
      case CmpOp::Le: return a <= b;
      case CmpOp::Gt: return a > b;
      case CmpOp::Ge: return a >= b;
      case CmpOp::Equ: return un || a == b;
      case CmpOp::Neu: return a != b;
      case CmpOp::Ltu: return un || a < b;
      case CmpOp::Leu: return un || a <= b;
      case CmpOp::Gtu: return un || a > b;
      case CmpOp::Geu: return un || a >= b;
      case CmpOp::Num: return !un;
      case CmpOp::Nan: return un;
      default: return false;
    }
  } else {
    switch (C) {
      case CmpOp::Eq: return a == b;
      case CmpOp::Ne: return a != b;
      case CmpOp::Lt: case CmpOp::Lo: return a < b;
      case CmpOp::Le: case CmpOp::Ls: return a <= b;
      case CmpOp::Gt: case CmpOp::Hi: return a > b;
      case CmpOp::Ge: case CmpOp::Hs: return a >= b;
      default: return false;
    }
  }
}

// Operand readers: the value of a register lane as the comparison's type.
template <class T>
struct ReadInt {
  static auto get(uint64_t raw) {
    if constexpr (std::is_signed_v<T>) {
      return static_cast<int64_t>(Int<T>::get(raw));
    } else {
      return static_cast<uint64_t>(Int<T>::get(raw));
    }
  }
};
template <bool Ftz>
struct ReadF32 {
  static float get(uint64_t raw) { return in_f32<Ftz>(raw); }
};
struct ReadF64 {
  static double get(uint64_t raw) { return as_f64(raw); }
};
template <bool Ftz>
struct ReadF16 {
  static float get(uint64_t raw) {
    return f16_to_f32(Ftz ? half_flush(static_cast<uint32_t>(raw) & 0xFFFFu, kF16) : raw);
  }
};
struct ReadBF16 {
  static float get(uint64_t raw) { return bf16_to_f32(raw); }
};

// b = t BOOLOP c, written as ((t & A) | O) ^ X with A, O, X derived from c.
struct Combine {
  uint64_t is_and, is_or, is_xor;
  explicit Combine(BoolOp op)
      : is_and(op == BoolOp::And), is_or(op == BoolOp::Or), is_xor(op == BoolOp::Xor) {}
  uint64_t apply(uint64_t t, uint64_t c) const {
    const uint64_t A = c | (is_and ^ 1);
    return ((t & A) | (c & is_or)) ^ (c & is_xor);
  }
};

template <class Read, CmpOp C, bool WithC>
struct SetpKernel {
  static void run(const AluArgs& args) {
    uint64_t* p = args.dst[0];
    uint64_t* q = args.dst[1];
    const uint64_t* a = args.src[0];
    const uint64_t* b = args.src[1];
    const uint64_t* c = args.src[2];
    const Combine comb(args.inst->boolop);
    auto test = [&](unsigned i) -> uint64_t {
      return compare<C>(Read::get(a[i]), Read::get(b[i])) ? 1 : 0;
    };
    // One loop per destination shape keeps the lane loop free of branches.
    if (q == nullptr) {
      if (p == nullptr) return;
      for_each_lane(args.mask, [&](unsigned i) {
        const uint64_t t = test(i);
        p[i] = WithC ? comb.apply(t, c[i] & 1) : t;
      });
    } else if (p == nullptr) {
      for_each_lane(args.mask, [&](unsigned i) {
        const uint64_t t = test(i) ^ 1;
        q[i] = WithC ? comb.apply(t, c[i] & 1) : t;
      });
    } else {
      for_each_lane(args.mask, [&](unsigned i) {
        const uint64_t t = test(i);
        const uint64_t cv = WithC ? (c[i] & 1) : 0;  // read before p/q may overwrite c
        p[i] = WithC ? comb.apply(t, cv) : t;
        q[i] = WithC ? comb.apply(t ^ 1, cv) : t ^ 1;
      });
    }
  }
};

// setp on packed halves: p <- lower halves, q <- upper halves.
template <class Read, CmpOp C, bool WithC>
struct SetpX2Kernel {
  static void run(const AluArgs& args) {
    uint64_t* p = args.dst[0];
    uint64_t* q = args.dst[1];
    const uint64_t* a = args.src[0];
    const uint64_t* b = args.src[1];
    const uint64_t* c = args.src[2];
    const Combine comb(args.inst->boolop);
    for_each_lane(args.mask, [&](unsigned i) {
      const uint64_t lo = compare<C>(Read::get(a[i]), Read::get(b[i])) ? 1 : 0;
      const uint64_t hi = compare<C>(Read::get(a[i] >> 16), Read::get(b[i] >> 16)) ? 1 : 0;
      const uint64_t cv = WithC ? (c[i] & 1) : 0;
      if (p != nullptr) p[i] = WithC ? comb.apply(lo, cv) : lo;
      if (q != nullptr) q[i] = WithC ? comb.apply(hi, cv) : hi;
    });
  }
};

// set: d = (a cmp b) BOOLOP c ? true_value : 0, with true_value 0xFFFFFFFF for
// .u32/.s32 destinations and 1.0f for .f32.
template <class Read, CmpOp C, bool WithC>
struct SetKernel {
  static void run(const AluArgs& args) {
    uint64_t* d = args.dst[0];
    if (d == nullptr) return;
    const uint64_t* a = args.src[0];
    const uint64_t* b = args.src[1];
    const uint64_t* c = args.src[2];
    const Combine comb(args.inst->boolop);
    const uint64_t true_value = args.inst->type == DataType::F32 ? 0x3F800000u : 0xFFFFFFFFu;
    for_each_lane(args.mask, [&](unsigned i) {
      uint64_t t = compare<C>(Read::get(a[i]), Read::get(b[i])) ? 1 : 0;
      if (WithC) t = comb.apply(t, c[i] & 1);
      d[i] = t != 0 ? true_value : 0;
    });
  }
};

// set on packed halves: each 16-bit half of d is 0xFFFF (.u32/.s32), 1.0 in
// f16 (.f16x2) or 1.0 in bf16 (.bf16x2) when true, else 0.
template <class Read, CmpOp C, bool WithC>
struct SetX2Kernel {
  static void run(const AluArgs& args) {
    uint64_t* d = args.dst[0];
    if (d == nullptr) return;
    const uint64_t* a = args.src[0];
    const uint64_t* b = args.src[1];
    const uint64_t* c = args.src[2];
    const Combine comb(args.inst->boolop);
    const DataType dt = args.inst->type;
    const uint64_t one = dt == DataType::F16x2 ? 0x3C00u : (dt == DataType::BF16x2 ? 0x3F80u : 0xFFFFu);
    for_each_lane(args.mask, [&](unsigned i) {
      uint64_t lo = compare<C>(Read::get(a[i]), Read::get(b[i])) ? 1 : 0;
      uint64_t hi = compare<C>(Read::get(a[i] >> 16), Read::get(b[i] >> 16)) ? 1 : 0;
      if (WithC) {
        lo = comb.apply(lo, c[i] & 1);
        hi = comb.apply(hi, c[i] & 1);
      }
      d[i] = (lo != 0 ? one : 0) | ((hi != 0 ? one : 0) << 16);
    });
  }
};

template <template <class, CmpOp, bool> class K, class Read, CmpOp C>
AluKernel with_c(bool has_c) {
  return has_c ? &K<Read, C, true>::run : &K<Read, C, false>::run;
}

template <template <class, CmpOp, bool> class K, class Read>
AluKernel float_cmp(CmpOp op, bool has_c) {
  switch (op) {
    case CmpOp::Eq: return with_c<K, Read, CmpOp::Eq>(has_c);
    case CmpOp::Ne: return with_c<K, Read, CmpOp::Ne>(has_c);
    case CmpOp::Lt: return with_c<K, Read, CmpOp::Lt>(has_c);
    case CmpOp::Le: return with_c<K, Read, CmpOp::Le>(has_c);
    case CmpOp::Gt: return with_c<K, Read, CmpOp::Gt>(has_c);
    case CmpOp::Ge: return with_c<K, Read, CmpOp::Ge>(has_c);
    case CmpOp::Equ: return with_c<K, Read, CmpOp::Equ>(has_c);
    case CmpOp::Neu: return with_c<K, Read, CmpOp::Neu>(has_c);
    case CmpOp::Ltu: return with_c<K, Read, CmpOp::Ltu>(has_c);
    case CmpOp::Leu: return with_c<K, Read, CmpOp::Leu>(has_c);
    case CmpOp::Gtu: return with_c<K, Read, CmpOp::Gtu>(has_c);
    case CmpOp::Geu: return with_c<K, Read, CmpOp::Geu>(has_c);
    case CmpOp::Num: return with_c<K, Read, CmpOp::Num>(has_c);
    case CmpOp::Nan: return with_c<K, Read, CmpOp::Nan>(has_c);
    default: return nullptr;
  }
}

// Integer comparisons: lo/ls/hi/hs always compare unsigned; eq..ge compare as
// the type's signedness (bit-size types as unsigned).
template <template <class, CmpOp, bool> class K, class T>
AluKernel int_cmp(CmpOp op, bool has_c) {
  using U = ReadInt<std::make_unsigned_t<T>>;
  using R = ReadInt<T>;
  switch (op) {
    case CmpOp::Eq: return with_c<K, U, CmpOp::Eq>(has_c);
    case CmpOp::Ne: return with_c<K, U, CmpOp::Ne>(has_c);
    case CmpOp::Lt: return with_c<K, R, CmpOp::Lt>(has_c);
    case CmpOp::Le: return with_c<K, R, CmpOp::Le>(has_c);
    case CmpOp::Gt: return with_c<K, R, CmpOp::Gt>(has_c);
    case CmpOp::Ge: return with_c<K, R, CmpOp::Ge>(has_c);
    case CmpOp::Lo: return with_c<K, U, CmpOp::Lo>(has_c);
    case CmpOp::Ls: return with_c<K, U, CmpOp::Ls>(has_c);
    case CmpOp::Hi: return with_c<K, U, CmpOp::Hi>(has_c);
    case CmpOp::Hs: return with_c<K, U, CmpOp::Hs>(has_c);
    default: return nullptr;
  }
}

// Kernel K for source type `st` (scalar types only).
template <template <class, CmpOp, bool> class K>
AluKernel scalar_cmp(DataType st, const Instruction& inst, bool has_c) {
  const CmpOp op = inst.cmp;
  if (inst.ftz && st != DataType::F32 && st != DataType::F16) return nullptr;
  switch (st) {
    case DataType::U16: case DataType::B16: return int_cmp<K, uint16_t>(op, has_c);
    case DataType::S16: return int_cmp<K, int16_t>(op, has_c);
    case DataType::U32: case DataType::B32: return int_cmp<K, uint32_t>(op, has_c);
    case DataType::S32: return int_cmp<K, int32_t>(op, has_c);
    case DataType::U64: case DataType::B64: return int_cmp<K, uint64_t>(op, has_c);
    case DataType::S64: return int_cmp<K, int64_t>(op, has_c);
    case DataType::F32:
      return inst.ftz ? float_cmp<K, ReadF32<true>>(op, has_c) : float_cmp<K, ReadF32<false>>(op, has_c);
    case DataType::F64: return float_cmp<K, ReadF64>(op, has_c);
    case DataType::F16:
      return inst.ftz ? float_cmp<K, ReadF16<true>>(op, has_c) : float_cmp<K, ReadF16<false>>(op, has_c);
    case DataType::BF16: return float_cmp<K, ReadBF16>(op, has_c);
    default: return nullptr;
  }
}

// Kernel K for packed source types (.f16x2 / .bf16x2).
template <template <class, CmpOp, bool> class K>
AluKernel packed_cmp(DataType st, const Instruction& inst, bool has_c) {
  if (st == DataType::F16x2) {
    return inst.ftz ? float_cmp<K, ReadF16<true>>(inst.cmp, has_c)
                    : float_cmp<K, ReadF16<false>>(inst.cmp, has_c);
  }
  if (st == DataType::BF16x2 && !inst.ftz) return float_cmp<K, ReadBF16>(inst.cmp, has_c);
  return nullptr;
}

bool is_packed(DataType t) { return t == DataType::F16x2 || t == DataType::BF16x2; }

// slct: d = (c >= 0) ? a : b, c of type .s32 or .f32 (-0.0 >= 0; NaN selects b).
template <class ReadC, uint64_t Mask>
struct SlctOp {
  static uint64_t apply(uint64_t a, uint64_t b, uint64_t c) {
    return (ReadC::get(c) >= 0 ? a : b) & Mask;
  }
};

template <class ReadC>
AluKernel slct_kernel(DataType dt) {
  switch (ir::type_size(dt)) {
    case 2: return &Ternary<SlctOp<ReadC, 0xFFFFull>>::run;
    case 4: return &Ternary<SlctOp<ReadC, 0xFFFFFFFFull>>::run;
    case 8: return &Ternary<SlctOp<ReadC, ~0ull>>::run;
    default: return nullptr;
  }
}

}  // namespace

AluKernel select_compare(const Instruction& inst) {
  const bool has_c = inst.boolop != BoolOp::None;
  switch (inst.op) {
    case Opcode::Setp: {
      const DataType st = inst.type;
      if (is_packed(st)) return packed_cmp<SetpX2Kernel>(st, inst, has_c);
      return scalar_cmp<SetpKernel>(st, inst, has_c);
    }
    case Opcode::Set: {
      const DataType dt = inst.type;
      const DataType st = inst.type2 == DataType::None ? inst.type : inst.type2;
      if (is_packed(st)) {
        const bool ok = dt == DataType::U32 || dt == DataType::S32 || dt == st;
        return ok ? packed_cmp<SetX2Kernel>(st, inst, has_c) : nullptr;
      }
      if (dt != DataType::U32 && dt != DataType::S32 && dt != DataType::F32) return nullptr;
      return scalar_cmp<SetKernel>(st, inst, has_c);
    }
    case Opcode::Slct: {
      const DataType dt = inst.type;
      if (dt == DataType::Pred || ir::type_size(dt) < 2 || ir::type_size(dt) > 8) return nullptr;
      switch (inst.type2) {
        case DataType::S32:
          return inst.ftz ? nullptr : slct_kernel<ReadInt<int32_t>>(dt);
        case DataType::F32:
          return inst.ftz ? slct_kernel<ReadF32<true>>(dt) : slct_kernel<ReadF32<false>>(dt);
        default: return nullptr;
      }
    }
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
