// PTX text -> ir::Module. Accepts the PTX that nvcc (CUDA 12/13) emits; rejects
// anything malformed or unsupported with simtlm::Error(ErrorKind::Ptx) whose
// message is "file:line:column: error: <what> near '<text>'".
#pragma once

#include <memory>
#include <string>

#include "frontend/ir/module.h"

namespace simtlm::frontend {

std::unique_ptr<ir::Module> parse_ptx(const std::string& text, const std::string& filename);

}  // namespace simtlm::frontend
