// Parser definitions of the SPU instructions (see spu_extensions.h).
#include "frontend/ptx/spu_extensions.h"

#include <string>

#include "frontend/ptx/extensions.h"
#include "simtlm/error.h"

namespace simtlm::frontend::ptx::spu {

namespace {

using ir::DataType;

bool cb_type(DataType t) {
  switch (t) {
    case DataType::B32: case DataType::U32: case DataType::S32: case DataType::F32:
    case DataType::B64: case DataType::U64: case DataType::S64: case DataType::F64:
      return true;
    default:
      return false;
  }
}

void check_cb_type(const ir::Instruction& inst, std::string& err) {
  if (!cb_type(inst.type))
    err = "communication-buffer accesses take a 32- or 64-bit type (.b32 .u32 .s32 .f32 .b64 .u64 .s64 .f64)";
}

ExtOperand address() {
  ExtOperand a;
  a.kinds = kExtAddress;
  return a;
}

// A data-moving CB access in the direction data may flow for it.
ExtensionDef cb_access(const std::string& mnemonic, bool load, const char* what) {
  ExtensionDef def;
  def.mnemonic = mnemonic;
  def.description = what;
  def.max_types = 1;
  def.type_required = true;
  def.validate = check_cb_type;
  ExtOperand value;
  value.kinds = load ? kExtReg : (kExtReg | kExtImm);
  value.is_dst = load;
  def.operands = load ? std::vector<ExtOperand>{value, address()} : std::vector<ExtOperand>{address(), value};
  return def;
}

// `ld.cb`/`st.cb` not followed by a direction the unit may use: a parse error
// that says which directions exist and why.
ExtensionDef cb_misdirected(const std::string& mnemonic, bool load) {
  ExtensionDef def;
  def.mnemonic = mnemonic;
  def.description = load ? "ld.cb without .north or .west (rejected)" : "st.cb without .south or .east (rejected)";
  def.max_types = 1;
  const std::string expect = load ? "ld.cb.north or ld.cb.west (a unit reads the buffers of its incoming links)"
                                  : "st.cb.south or st.cb.east (a unit writes the buffers of its outgoing links)";
  def.parse_modifier = [mnemonic, expect](std::string_view m, ir::Instruction&, std::string& err) {
    err = mnemonic + "." + std::string(m) + ": data moves only west->east and north->south; use " + expect;
    return false;
  };
  def.validate = [expect](const ir::Instruction&, std::string& err) { err = "missing direction: use " + expect; };
  ExtOperand any;
  any.kinds = kExtReg | kExtImm | kExtAddress;
  any.optional = true;
  def.operands = {any, any};
  return def;
}

ExtensionDef blocksync(const std::string& mnemonic, const char* what) {
  ExtensionDef def;
  def.mnemonic = mnemonic;
  def.description = what;
  def.max_types = 0;
  return def;
}

void expect_id(uint16_t got, uint16_t want, const char* name) {
  if (got != want)
    throw Error(ErrorKind::Internal, std::string("SPU extension '") + name + "' registered as id " +
                                         std::to_string(got) + ", expected " + std::to_string(want));
}

}  // namespace

void register_spu_extensions(ExtensionRegistry& r) {
  expect_id(r.add(cb_misdirected("ld.cb", true)), kLdCbAny, "ld.cb");
  expect_id(r.add(cb_access("ld.cb.north", true, "load from the consumer buffer of the link from the north")),
            kLdCbNorth, "ld.cb.north");
  expect_id(r.add(cb_access("ld.cb.west", true, "load from the consumer buffer of the link from the west")),
            kLdCbWest, "ld.cb.west");
  expect_id(r.add(cb_misdirected("st.cb", false)), kStCbAny, "st.cb");
  expect_id(r.add(cb_access("st.cb.south", false, "store into the producer buffer of the link to the south")),
            kStCbSouth, "st.cb.south");
  expect_id(r.add(cb_access("st.cb.east", false, "store into the producer buffer of the link to the east")),
            kStCbEast, "st.cb.east");
  expect_id(r.add(blocksync("bar.blocksync", "global SPU barrier: every active unit, then every CB pair swaps")),
            kBlocksync, "bar.blocksync");
  expect_id(r.add(blocksync("bar.blocksync.north", "rendezvous with the producer to the north; the link swaps")),
            kBlocksyncNorth, "bar.blocksync.north");
  expect_id(r.add(blocksync("bar.blocksync.west", "rendezvous with the producer to the west; the link swaps")),
            kBlocksyncWest, "bar.blocksync.west");
  expect_id(r.add(blocksync("bar.blocksync.south", "rendezvous with the consumer to the south; the link swaps")),
            kBlocksyncSouth, "bar.blocksync.south");
  expect_id(r.add(blocksync("bar.blocksync.east", "rendezvous with the consumer to the east; the link swaps")),
            kBlocksyncEast, "bar.blocksync.east");

  ExtensionDef sreg;
  sreg.mnemonic = "spu.sreg";
  sreg.description = "read an SPU special register (isiu, iudir, iuid, regviu, regpassx/y, regnpassx/y)";
  sreg.max_types = 1;
  sreg.type_required = true;
  sreg.validate = [](const ir::Instruction& inst, std::string& err) {
    if (inst.type != DataType::U32 && inst.type != DataType::B32 && inst.type != DataType::S32)
      err = "spu.sreg reads a 32-bit register: use spu.sreg.u32";
  };
  ExtOperand dst;
  dst.kinds = kExtReg;
  dst.is_dst = true;
  ExtOperand name;
  name.kinds = kExtName;
  for (std::string_view n : kSpuRegNames) name.names.emplace_back(n);
  sreg.operands = {dst, name};
  expect_id(r.add(std::move(sreg)), kSreg, "spu.sreg");
}

}  // namespace simtlm::frontend::ptx::spu
