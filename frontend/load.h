// The front end's one-call entry: parse, validate, lower calls, analyse.
// The returned module is ready for either backend (branch reconvergence
// points, register counts, local/shared/param sizes are filled in).
#pragma once

#include <memory>
#include <string>

#include "frontend/ir/module.h"

namespace simtlm::frontend {

std::unique_ptr<ir::Module> load_ptx_text(const std::string& text, const std::string& filename);
// Reads the file; a missing/unreadable file is Error(Input) naming the path.
std::unique_ptr<ir::Module> load_ptx_file(const std::string& path);

}  // namespace simtlm::frontend
