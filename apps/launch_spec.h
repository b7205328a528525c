// SPEC.json of `simtlm ptx FILE --kernel NAME --launch SPEC.json`: how to
// launch a user's kernel. Parsed strictly; every error names the spec file
// and the JSON path of the offending value ("spec.json: args[2]: ...").
//
//   {
//     "grid": [x, y, z] | n,  "block": [x, y, z] | n,  "dynamic_shared_bytes": n,
//     "registers_per_thread": n (1..255, optional: the kernel's register count
//                                for CTA admission, instead of ptxas's),
//     "args": [ {"type": "u32|s32|u64|s64|f32|f64|...", "value": v}
//             | {"buffer": "name", "offset": bytes (optional)}
//             | {"bytes": "hex digits" | [byte, ...]} | {"file": "arg.bin"} ],
//              (the last two: a by-value aggregate .param, its exact bytes)
//     "buffers": { "name": { "size_bytes": n,
//                            "init": "zero" | {"random": seed, "type": "f32"} | {"file": "in.bin"},
//                            "output": "out.bin" } }
//   }
#pragma once

#include <cstdint>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "frontend/ir/types.h"
#include "simtlm/device.h"

namespace simtlm::cli {

// ArgSpec::type of an argument given as raw bytes ({"bytes": ...} / {"file": ...}).
inline constexpr const char* kRawBytesType = "bytes";
// Largest raw-bytes argument: CUDA's limit on a kernel's parameters (32764 bytes).
inline constexpr uint64_t kMaxRawArgBytes = 32764;

struct ArgSpec {
  std::string path;             // "args[2]", for messages
  bool is_buffer = false;
  std::string buffer;           // buffer argument: its name ...
  uint64_t offset = 0;          // ... and a byte offset added to its address
  std::string type;             // scalar argument: type name ("u32", or kRawBytesType) ...
  std::vector<uint8_t> bytes;   // ... and value, little-endian
};

enum class BufferInit { Zero, Random, File };

struct BufferSpec {
  std::string name;
  std::string path;             // "buffers.xs", for messages
  uint64_t size_bytes = 0;
  BufferInit init = BufferInit::Zero;
  uint64_t seed = 0;            // Random: generator seed and element type
  ir::DataType random_type = ir::DataType::U32;
  std::filesystem::path file;   // File: resolved against the spec's directory
  std::string output;           // written back after the run ("" = not)
};

struct LaunchSpec {
  std::string file;             // the spec's path as given (message prefix)
  std::filesystem::path dir;    // directory of the spec (relative input/output paths)
  Dim3 grid, block;
  uint32_t dynamic_shared_bytes = 0;
  uint32_t registers_per_thread = 0;  // 0 = not given
  std::vector<ArgSpec> args;
  std::vector<BufferSpec> buffers;  // sorted by name

  const BufferSpec* find_buffer(const std::string& name) const;
  // Error(Input) "file: path: message".
  [[noreturn]] void fail(const std::string& path, const std::string& message) const;
};

// Reads and validates the spec (input files must exist; their sizes are checked).
LaunchSpec load_launch_spec(const std::string& path);
LaunchSpec parse_launch_spec(const nlohmann::json& json, const std::string& file,
                             const std::filesystem::path& dir);

// A buffer's initial contents: zeros, seeded random elements (integers: random
// bits; f32/f64: uniform in [-1, 1)), or the input file's bytes.
std::vector<uint8_t> initial_contents(const LaunchSpec& spec, const BufferSpec& buffer);

}  // namespace simtlm::cli
