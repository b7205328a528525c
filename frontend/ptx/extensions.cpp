// Extension registry: built-ins and longest-prefix lookup.
#include "frontend/ptx/extensions.h"

#include "frontend/ptx/spu_extensions.h"
#include "simtlm/error.h"

namespace simtlm::frontend::ptx {

namespace {

std::vector<std::string> split_dots(std::string_view s) {
  std::vector<std::string> parts;
  size_t start = 0;
  for (;;) {
    size_t dot = s.find('.', start);
    parts.emplace_back(s.substr(start, dot == std::string_view::npos ? s.npos : dot - start));
    if (dot == std::string_view::npos) break;
    start = dot + 1;
  }
  return parts;
}

bool valid_component(const std::string& c) {
  if (c.empty()) return false;
  for (char ch : c) {
    bool ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
              ch == '_' || ch == '$' || ch == ':';
    if (!ok) return false;
  }
  return true;
}

}  // namespace

ExtensionRegistry::ExtensionRegistry() {
  ExtensionDef trap;
  trap.mnemonic = "trap";
  trap.description = "abort the kernel with a device fault";
  trap.max_types = 0;
  add(std::move(trap));

  ExtensionDef warp_sync;
  warp_sync.mnemonic = "bar.warp.sync";
  warp_sync.description = "synchronise the lanes of the warp named by the member mask";
  warp_sync.max_types = 0;
  ExtOperand mask;
  mask.kinds = kExtReg | kExtImm;
  mask.type = ir::DataType::B32;
  warp_sync.operands.push_back(mask);
  add(std::move(warp_sync));

  ExtensionDef redux;
  redux.mnemonic = "redux.sync";
  redux.description = "warp-wide reduction of a 32-bit value over the member mask";
  redux.max_types = 1;
  redux.type_required = true;
  redux.parse_modifier = [](std::string_view m, ir::Instruction& inst, std::string& err) {
    ir::AtomOp op = m == "add"   ? ir::AtomOp::Add
                    : m == "min" ? ir::AtomOp::Min
                    : m == "max" ? ir::AtomOp::Max
                    : m == "and" ? ir::AtomOp::And
                    : m == "or"  ? ir::AtomOp::Or
                    : m == "xor" ? ir::AtomOp::Xor
                                 : ir::AtomOp::None;
    if (op == ir::AtomOp::None) return false;
    if (inst.atom != ir::AtomOp::None) {
      err = "redux.sync: more than one operation";
      return false;
    }
    inst.atom = op;
    return true;
  };
  redux.validate = [](const ir::Instruction& inst, std::string& err) {
    bool arith = inst.atom == ir::AtomOp::Add || inst.atom == ir::AtomOp::Min ||
                 inst.atom == ir::AtomOp::Max;
    if (inst.atom == ir::AtomOp::None)
      err = "redux.sync needs an operation (.add, .min, .max, .and, .or, .xor)";
    else if (arith && inst.type != ir::DataType::U32 && inst.type != ir::DataType::S32)
      err = "redux.sync .add/.min/.max need .u32 or .s32";
    else if (!arith && inst.type != ir::DataType::B32)
      err = "redux.sync .and/.or/.xor need .b32";
  };
  ExtOperand d;
  d.kinds = kExtReg;
  d.is_dst = true;
  ExtOperand a;
  a.kinds = kExtReg | kExtImm;
  redux.operands = {d, a, mask};
  add(std::move(redux));

  ExtensionDef bmsk;
  bmsk.mnemonic = "bmsk";
  bmsk.description = "bit-field mask: b bits starting at bit position a";
  bmsk.max_types = 1;
  bmsk.type_required = true;
  bmsk.modifier_groups = {{{"clamp", "wrap"}, true}};
  bmsk.parse_modifier = [](std::string_view m, ir::Instruction& inst, std::string&) {
    inst.shift_clamp = m == "clamp";
    return m == "clamp" || m == "wrap";
  };
  bmsk.validate = [](const ir::Instruction& inst, std::string& err) {
    if (inst.type != ir::DataType::B32) err = "bmsk supports only .b32";
  };
  ExtOperand u32;
  u32.kinds = kExtReg | kExtImm;
  u32.type = ir::DataType::U32;
  bmsk.operands = {d, u32, u32};
  add(std::move(bmsk));

  ExtensionDef vprintf;
  vprintf.mnemonic = "vprintf";
  vprintf.description = "CUDA device printf: format string and argument buffer at generic addresses";
  vprintf.max_types = 0;
  ExtOperand result;
  result.kinds = kExtReg;
  result.is_dst = true;
  result.type = ir::DataType::B32;
  ExtOperand address;
  address.kinds = kExtReg | kExtImm;
  address.type = ir::DataType::B64;
  vprintf.operands = {result, address, address};
  add(std::move(vprintf));

  ExtensionDef relssp;
  relssp.mnemonic = "relssp";
  relssp.description = "release the CTA's lock on the shared scratchpad region once all its active threads executed it";
  relssp.max_types = 0;
  add(std::move(relssp));

  spu::register_spu_extensions(*this);  // ids spu::kFirst..kLast (frontend/ptx/spu_extensions.h)
}

ExtensionRegistry& ExtensionRegistry::global() {
  static ExtensionRegistry registry;
  return registry;
}

uint16_t ExtensionRegistry::add(ExtensionDef def) {
  std::vector<std::string> parts = split_dots(def.mnemonic);
  for (const auto& p : parts)
    if (!valid_component(p))
      throw Error(ErrorKind::Internal, "invalid extension mnemonic '" + def.mnemonic + "'");
  if (id_of(def.mnemonic) >= 0)
    throw Error(ErrorKind::Internal, "extension '" + def.mnemonic + "' is already registered");
  if (defs_.size() >= 0xFFFF)
    throw Error(ErrorKind::Internal, "too many extensions registered");
  bool seen_optional = false;
  for (const auto& op : def.operands) {
    if (seen_optional && !op.optional)
      throw Error(ErrorKind::Internal,
                  "extension '" + def.mnemonic + "': optional operands must be trailing");
    seen_optional = seen_optional || op.optional;
    if (op.kinds == 0)
      throw Error(ErrorKind::Internal,
                  "extension '" + def.mnemonic + "': operand accepts no kind");
  }
  auto id = static_cast<uint16_t>(defs_.size());
  by_first_[parts[0]].push_back(id);
  split_.push_back(std::move(parts));
  defs_.push_back(std::move(def));
  return id;
}

const ExtensionDef* ExtensionRegistry::find(uint16_t id) const {
  return id < defs_.size() ? &defs_[id] : nullptr;
}

int ExtensionRegistry::id_of(std::string_view mnemonic) const {
  for (size_t i = 0; i < defs_.size(); ++i)
    if (defs_[i].mnemonic == mnemonic) return static_cast<int>(i);
  return -1;
}

int ExtensionRegistry::match(const std::vector<std::string_view>& components,
                             size_t& consumed) const {
  if (components.empty()) return -1;
  auto it = by_first_.find(std::string(components[0]));
  if (it == by_first_.end()) return -1;
  int best = -1;
  size_t best_len = 0;
  for (uint16_t id : it->second) {
    const auto& parts = split_[id];
    if (parts.size() > components.size() || parts.size() <= best_len) continue;
    bool ok = true;
    for (size_t i = 1; i < parts.size() && ok; ++i) ok = parts[i] == components[i];
    if (ok) {
      best = id;
      best_len = parts.size();
    }
  }
  consumed = best_len;
  return best;
}

}  // namespace simtlm::frontend::ptx
