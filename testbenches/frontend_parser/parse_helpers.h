// Small helpers shared by the parser tests.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "frontend/ir/module.h"
#include "frontend/ptx/parser.h"
#include "simtlm/error.h"

namespace parser_test {

inline const char* kHeader = ".version 8.0\n.target sm_75\n.address_size 64\n";

// Parses a complete PTX text.
inline std::unique_ptr<simtlm::ir::Module> parse(const std::string& text,
                                                 const std::string& file = "test.ptx") {
  return simtlm::frontend::parse_ptx(text, file);
}

// Wraps `body` in a kernel `k` with a standard register set and a
// module-scope shared array `smem`, global `gvar`:
//   %p<8> .pred, %rs<8> .b16, %r<16> .b32, %rd<16> .b64, %f<16> .f32,
//   %fd<8> .f64, %h<4> .f16, %hh<4> .f16x2, %u<4> .u32, %s<4> .s32
inline std::string kernel_text(const std::string& body, const std::string& extra_decls = "") {
  return std::string(kHeader) +
         ".shared .align 4 .b8 smem[256];\n"
         ".global .align 4 .u32 gvar;\n" +
         extra_decls +
         ".visible .entry k(.param .u64 k_param_0, .param .u32 k_param_1)\n{\n"
         "  .reg .pred %p<8>;\n  .reg .b16 %rs<8>;\n  .reg .b32 %r<16>;\n  .reg .b64 %rd<16>;\n"
         "  .reg .f32 %f<16>;\n  .reg .f64 %fd<8>;\n  .reg .f16 %h<4>;\n  .reg .f16x2 %hh<4>;\n"
         "  .reg .u32 %u<4>;\n  .reg .s32 %s<4>;\n" +
         body + "\n  ret;\n}\n";
}

inline std::unique_ptr<simtlm::ir::Module> parse_kernel(const std::string& body,
                                                        const std::string& extra_decls = "") {
  return parse(kernel_text(body, extra_decls));
}

// The first instruction of kernel `k` built from a one-instruction body.
struct One {
  std::unique_ptr<simtlm::ir::Module> mod;
  const simtlm::ir::Function* fn = nullptr;
  const simtlm::ir::Instruction* inst = nullptr;
  uint32_t reg(const std::string& name) const {
    for (uint32_t i = 0; i < fn->regs.size(); ++i)
      if (fn->regs[i].name == name) return i;
    ADD_FAILURE() << "no register " << name;
    return 0;
  }
  uint32_t var(const std::string& name) const {
    for (uint32_t i = 0; i < mod->vars.size(); ++i)
      if (mod->vars[i].name == name) return i;
    ADD_FAILURE() << "no variable " << name;
    return 0;
  }
};

inline One one(const std::string& inst_text, const std::string& extra_decls = "") {
  One o;
  o.mod = parse_kernel("  " + inst_text, extra_decls);
  o.fn = &o.mod->functions.at(o.mod->function_index.at("k"));
  o.inst = &o.fn->insts.at(0);
  return o;
}

// Returns the Ptx error message of parsing `text`, or "<no error>".
inline std::string error_of(const std::string& text) {
  try {
    parse(text);
  } catch (const simtlm::Error& e) {
    EXPECT_EQ(e.kind(), simtlm::ErrorKind::Ptx) << e.what();
    return e.what();
  }
  return "<no error>";
}

inline std::string kernel_error(const std::string& body, const std::string& extra_decls = "") {
  return error_of(kernel_text(body, extra_decls));
}

}  // namespace parser_test
