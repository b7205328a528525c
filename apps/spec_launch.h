// Runs a user's kernel as a launch spec describes it: allocates and fills the
// buffers, checks the arguments against the kernel's parameters (messages name
// the spec path), launches, and writes the output buffers back.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "apps/launch_spec.h"
#include "simtlm/device.h"

namespace simtlm::cli {

struct SpecLaunchResult {
  LaunchStats stats;
  std::vector<std::string> outputs;  // files written
};

// An output that names one of the spec's own input files would overwrite it
// (and a rerun would then read the result as its input): Error(Input) naming
// both. launch_from_spec checks it; a command that clears earlier results
// from the output folder checks it first.
void check_outputs_spare_inputs(const LaunchSpec& spec, const std::filesystem::path& output_dir);

// `output_dir`: where relative "output" paths go (--out DIR, else the spec's directory).
SpecLaunchResult launch_from_spec(Device& device, ModuleHandle module, const std::string& kernel,
                                  const LaunchSpec& spec,
                                  const std::filesystem::path& output_dir);

}  // namespace simtlm::cli
