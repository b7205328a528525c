// Extended-precision integer arithmetic through the carry flag CC.CF:
// add.cc, addc{.cc}, sub.cc, subc{.cc}, mad{.lo,.hi}.cc, madc{.lo,.hi}{.cc}
// (PTX ISA "Extended-Precision Integer Arithmetic Instructions").
// For subtraction the flag is a borrow: sub.cc sets CF = (a < b) unsigned and
// subc computes d = a - (b + CF), so sub.cc/subc chains subtract multi-word
// numbers just as add.cc/addc chains add them. The operands are treated as
// unsigned bit patterns for the carry; .s32/.s64 only change mad's .hi product.
#include "functional/alu_detail.h"

namespace simtlm::functional::alu_detail {
namespace {

using U128 = unsigned __int128;
using I128 = __int128;

template <class T, bool Sub, bool CarryIn, bool CarryOut>
struct AddSubCarry {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    const uint64_t* x = a.src[0];
    const uint64_t* y = a.src[1];
    uint64_t* cf = a.carry;
    constexpr uint64_t kMask = Int<T>::kMask;
    constexpr unsigned kBits = Int<T>::kBits;
    for_each_lane(a.mask, [&](unsigned i) {
      const uint64_t xa = x[i] & kMask;
      const uint64_t yb = y[i] & kMask;
      const uint64_t cin = CarryIn ? (cf[i] & 1) : 0;
      uint64_t r, cout;
      if constexpr (Sub) {
        r = (xa - yb - cin) & kMask;
        cout = static_cast<U128>(xa) < static_cast<U128>(yb) + cin ? 1 : 0;
      } else {
        const U128 s = static_cast<U128>(xa) + yb + cin;
        r = static_cast<uint64_t>(s) & kMask;
        cout = static_cast<uint64_t>(s >> kBits) & 1;
      }
      if (d != nullptr) d[i] = r;
      if (CarryOut) cf[i] = cout;
    });
  }
};

template <class T, bool Hi, bool CarryIn, bool CarryOut>
struct MadCarry {
  static void run(const AluArgs& a) {
    uint64_t* d = a.dst[0];
    const uint64_t* x = a.src[0];
    const uint64_t* y = a.src[1];
    const uint64_t* z = a.src[2];
    uint64_t* cf = a.carry;
    constexpr uint64_t kMask = Int<T>::kMask;
    constexpr unsigned kBits = Int<T>::kBits;
    for_each_lane(a.mask, [&](unsigned i) {
      U128 p;
      if constexpr (Int<T>::kSigned) {
        using S = typename Int<T>::S;
        p = static_cast<U128>(static_cast<I128>(static_cast<S>(Int<T>::get(x[i]))) *
                              static_cast<I128>(static_cast<S>(Int<T>::get(y[i]))));
      } else {
        p = static_cast<U128>(x[i] & kMask) * static_cast<U128>(y[i] & kMask);
      }
      const uint64_t t = static_cast<uint64_t>(Hi ? (p >> kBits) : p) & kMask;
      const uint64_t cin = CarryIn ? (cf[i] & 1) : 0;
      const U128 s = static_cast<U128>(t) + (z[i] & kMask) + cin;
      if (d != nullptr) d[i] = static_cast<uint64_t>(s) & kMask;
      if (CarryOut) cf[i] = static_cast<uint64_t>(s >> kBits) & 1;
    });
  }
};

template <class T>
AluKernel add_sub(bool sub, bool cin, bool cout) {
  if (sub) {
    if (cin) return cout ? &AddSubCarry<T, true, true, true>::run : &AddSubCarry<T, true, true, false>::run;
    return cout ? &AddSubCarry<T, true, false, true>::run : &AddSubCarry<T, true, false, false>::run;
  }
  if (cin) return cout ? &AddSubCarry<T, false, true, true>::run : &AddSubCarry<T, false, true, false>::run;
  return cout ? &AddSubCarry<T, false, false, true>::run : &AddSubCarry<T, false, false, false>::run;
}

template <class T>
AluKernel mad(bool hi, bool cin, bool cout) {
  if (hi) {
    if (cin) return cout ? &MadCarry<T, true, true, true>::run : &MadCarry<T, true, true, false>::run;
    return cout ? &MadCarry<T, true, false, true>::run : &MadCarry<T, true, false, false>::run;
  }
  if (cin) return cout ? &MadCarry<T, false, true, true>::run : &MadCarry<T, false, true, false>::run;
  return cout ? &MadCarry<T, false, false, true>::run : &MadCarry<T, false, false, false>::run;
}

template <class T>
AluKernel select_typed(const Instruction& inst) {
  switch (inst.op) {
    case Opcode::Add: return add_sub<T>(false, false, true);
    case Opcode::Sub: return add_sub<T>(true, false, true);
    case Opcode::Addc: return add_sub<T>(false, true, inst.cc);
    case Opcode::Subc: return add_sub<T>(true, true, inst.cc);
    case Opcode::Mad: case Opcode::Madc: {
      if (inst.mul == ir::MulMode::Wide) return nullptr;
      const bool cin = inst.op == Opcode::Madc;
      const bool cout = inst.cc;
      return mad<T>(inst.mul == ir::MulMode::Hi, cin, cout);
    }
    default: return nullptr;
  }
}

}  // namespace

AluKernel select_carry(const Instruction& inst) {
  if (inst.sat) return nullptr;
  switch (inst.type) {
    case DataType::U32: case DataType::B32: return select_typed<uint32_t>(inst);
    case DataType::S32: return select_typed<int32_t>(inst);
    case DataType::U64: case DataType::B64: return select_typed<uint64_t>(inst);
    case DataType::S64: return select_typed<int64_t>(inst);
    default: return nullptr;
  }
}

}  // namespace simtlm::functional::alu_detail
