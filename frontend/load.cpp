// parse -> the pipeline's load-time passes (see load.h).
#include "frontend/load.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "frontend/ptx/parser.h"
#include "simtlm/error.h"

namespace simtlm::frontend {

std::unique_ptr<ir::Module> load_ptx_text(const std::string& text, const std::string& filename) {
  return load_ptx_text(text, filename, PassPipeline::standard());
}

std::unique_ptr<ir::Module> load_ptx_text(const std::string& text, const std::string& filename,
                                          const PassPipeline& pipeline) {
  std::unique_ptr<ir::Module> module = parse_ptx(text, filename);
  pipeline.run_load_passes(*module);
  return module;
}

std::unique_ptr<ir::Module> load_ptx_file(const std::string& path) {
  return load_ptx_file(path, PassPipeline::standard());
}

std::unique_ptr<ir::Module> load_ptx_file(const std::string& path, const PassPipeline& pipeline) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw Error(ErrorKind::Input, "cannot read PTX file '" + path + "': is a directory");
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    int err = errno;
    throw Error(ErrorKind::Input, "cannot read PTX file '" + path + "': " +
                                      (err ? std::strerror(err) : "cannot open"));
  }
  std::ostringstream buf;
  buf << in.rdbuf();
  if (in.bad()) {
    int err = errno;
    throw Error(ErrorKind::Input, "cannot read PTX file '" + path + "': " +
                                      (err ? std::strerror(err) : "read error"));
  }
  return load_ptx_text(buf.str(), path, pipeline);
}

}  // namespace simtlm::frontend
