// The `simtlm ptx FILE` report: every kernel and device function of a parsed
// module with its parameters and resource use.
#pragma once

#include <ostream>
#include <string>

#include "frontend/ir/module.h"

namespace simtlm::cli {

// Prints the module header and every function (only `only_kernel` when not empty).
void print_ptx_report(std::ostream& out, const ir::Module& module, const std::string& only_kernel);

}  // namespace simtlm::cli
