// Names and sizes of the PTX vocabulary in frontend/ir/types.h.
#include "frontend/ir/types.h"

#include <array>
#include <utility>

namespace simtlm::ir {

namespace {
struct TypeEntry {
  DataType type;
  std::string_view name;
  unsigned size;
};
constexpr std::array<TypeEntry, 21> kTypes = {{
    {DataType::None, "", 0},       {DataType::Pred, "pred", 1},   {DataType::B8, "b8", 1},
    {DataType::B16, "b16", 2},     {DataType::B32, "b32", 4},     {DataType::B64, "b64", 8},
    {DataType::B128, "b128", 16},  {DataType::U8, "u8", 1},       {DataType::U16, "u16", 2},
    {DataType::U32, "u32", 4},     {DataType::U64, "u64", 8},     {DataType::S8, "s8", 1},
    {DataType::S16, "s16", 2},     {DataType::S32, "s32", 4},     {DataType::S64, "s64", 8},
    {DataType::F16, "f16", 2},     {DataType::F16x2, "f16x2", 4}, {DataType::BF16, "bf16", 2},
    {DataType::BF16x2, "bf16x2", 4}, {DataType::F32, "f32", 4},   {DataType::F64, "f64", 8},
}};

const TypeEntry& entry(DataType t) {
  for (const auto& e : kTypes)
    if (e.type == t) return e;
  return kTypes[0];
}
}  // namespace

unsigned type_size(DataType t) { return entry(t).size; }
std::string_view type_name(DataType t) { return entry(t).name; }

bool parse_type(std::string_view text, DataType& out) {
  for (const auto& e : kTypes) {
    if (e.type != DataType::None && e.name == text) {
      out = e.type;
      return true;
    }
  }
  return false;
}

bool is_float(DataType t) {
  switch (t) {
    case DataType::F16: case DataType::F16x2: case DataType::BF16:
    case DataType::BF16x2: case DataType::F32: case DataType::F64:
      return true;
    default:
      return false;
  }
}

bool is_signed(DataType t) {
  return t == DataType::S8 || t == DataType::S16 || t == DataType::S32 || t == DataType::S64;
}

bool is_unsigned(DataType t) {
  return t == DataType::U8 || t == DataType::U16 || t == DataType::U32 || t == DataType::U64;
}

bool is_bits(DataType t) {
  return t == DataType::B8 || t == DataType::B16 || t == DataType::B32 || t == DataType::B64 ||
         t == DataType::B128;
}

std::string_view space_name(StateSpace s) {
  switch (s) {
    case StateSpace::None: return "";
    case StateSpace::Reg: return "reg";
    case StateSpace::Sreg: return "sreg";
    case StateSpace::Const: return "const";
    case StateSpace::Global: return "global";
    case StateSpace::Local: return "local";
    case StateSpace::Param: return "param";
    case StateSpace::Shared: return "shared";
    case StateSpace::SharedCluster: return "shared::cluster";
    case StateSpace::Tex: return "tex";
    case StateSpace::Generic: return "generic";
  }
  return "";
}

std::string_view cache_op_name(CacheOp c) {
  switch (c) {
    case CacheOp::None: return "";
    case CacheOp::Ca: return "ca";
    case CacheOp::Cg: return "cg";
    case CacheOp::Cs: return "cs";
    case CacheOp::Lu: return "lu";
    case CacheOp::Cv: return "cv";
    case CacheOp::Wb: return "wb";
    case CacheOp::Wt: return "wt";
  }
  return "";
}

}  // namespace simtlm::ir
