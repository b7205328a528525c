// The small PTX modules the runtime, cli and platform tests share; the texts
// are files of testbenches/data/kernels/ (each file's header says what its
// kernels do), read when a test uses the constant.
#pragma once

#include <string>

#include "testbenches/common/test_data.h"

namespace simtlm::test {

inline const test_data::File kParamsPtx{"kernels/write_params.ptx"};

inline const test_data::File kVecAddPtx{"kernels/vec_add.ptx"};

inline const test_data::File kGlobalsPtx{"kernels/globals_init.ptx"};

// vec_add with one instruction replaced by an unknown one: malformed PTX
// whose error must name the file and `line`, the line of the replacement.
struct MalformedPtx {
  std::string text;
  size_t line;
};
inline MalformedPtx malformed_vec_add() {
  const std::string base = kVecAddPtx;
  const std::string good = "\tmov.u32 \t%r3, %ctaid.x;";
  return {test_data::replace_line(base, good, "\tfrobnicate.u32 \t%r3;"), test_data::line_of(base, good)};
}

}  // namespace simtlm::test
