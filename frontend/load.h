// The front end's one-call entry: parse, then run the pass pipeline's
// load-time passes (by default: validate, lower calls, lay out memory,
// analyse; see passes/pipeline.h). The returned module is ready for either
// backend (branch reconvergence points, register counts, local/shared/param
// sizes are filled in).
#pragma once

#include <memory>
#include <string>

#include "frontend/ir/module.h"
#include "frontend/passes/pipeline.h"

namespace simtlm::frontend {

// With the standard pipeline (PassPipeline::standard()).
std::unique_ptr<ir::Module> load_ptx_text(const std::string& text, const std::string& filename);
std::unique_ptr<ir::Module> load_ptx_text(const std::string& text, const std::string& filename,
                                          const PassPipeline& pipeline);
// Reads the file; a missing/unreadable file is Error(Input) naming the path.
std::unique_ptr<ir::Module> load_ptx_file(const std::string& path);
std::unique_ptr<ir::Module> load_ptx_file(const std::string& path, const PassPipeline& pipeline);

}  // namespace simtlm::frontend
