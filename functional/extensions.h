// Semantics registry of extension instructions (ir::Opcode::Extension). The
// parser's registry (frontend/ptx/extensions.h) assigns every extension
// mnemonic an ext_id; research mechanisms register here what the instruction
// does when a warp executes it. Registration must happen before the launch
// that uses the instruction (the executor looks handlers up once, when it
// pre-decodes the kernel). Executing an extension with no registered
// semantics is Error(Ptx) naming the PTX line.
#pragma once

#include <cstdint>

#include "functional/decoded.h"

namespace simtlm::functional {

class Cta;
class LaunchContext;

// Everything an extension handler may touch. The executor advances the warp's
// pc after the handler returns (unless the handler changed control flow
// itself through warp.jump()/branch(): set `control_handled`). The handler may
// fill the record's memory fields (cls, space, access_bytes, addresses) for
// the timing model; cls defaults to ExecClass::Extension.
struct ExtensionCall {
  const ir::Instruction& inst;
  Warp& warp;
  Cta& cta;
  const LaunchContext& ctx;
  uint64_t exec_mask;      // active lanes whose guard held
  ExecRecord& record;
  bool control_handled = false;
};

// Registers (or replaces) the semantics of extension `ext_id`.
void register_extension_semantics(uint16_t ext_id, ExtensionHandler handler);
// Removes a registration (tests).
void unregister_extension_semantics(uint16_t ext_id);
// The handler of `ext_id`, or nullptr. The pointer stays valid until the
// registration is replaced or removed.
const ExtensionHandler* find_extension_semantics(uint16_t ext_id);

}  // namespace simtlm::functional
