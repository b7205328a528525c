#include "apps/launch_spec.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <limits>
#include <random>
#include <set>

#include "simtlm/error.h"
#include "models/common/json_input.h"

namespace simtlm::cli {

namespace fs = std::filesystem;
using nlohmann::json;

const BufferSpec* LaunchSpec::find_buffer(const std::string& name) const {
  for (const BufferSpec& b : buffers)
    if (b.name == name) return &b;
  return nullptr;
}

void LaunchSpec::fail(const std::string& path, const std::string& message) const {
  throw Error(ErrorKind::Input, file + ": " + (path.empty() ? "" : path + ": ") + message);
}

namespace {

std::string kind_of(const json& j) {
  switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::string: return "a string";
    case json::value_t::array: return "an array";
    case json::value_t::object: return "an object";
    case json::value_t::number_float: return "a non-integer number";
    default: return "a number";
  }
}

void check_keys(const LaunchSpec& spec, const std::string& path, const json& obj,
                std::initializer_list<const char*> allowed) {
  for (auto it = obj.begin(); it != obj.end(); ++it) {
    bool known = false;
    std::string list;
    for (const char* a : allowed) {
      known = known || it.key() == a;
      list += (list.empty() ? "" : ", ") + std::string(a);
    }
    if (!known)
      spec.fail(path, "unknown key '" + it.key() + "' (expected one of: " + list + ")");
  }
}

uint64_t get_uint(const LaunchSpec& spec, const std::string& path, const json& j, uint64_t min,
                  uint64_t max) {
  if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned()))
    spec.fail(path, "expected a non-negative integer, got " +
                        (j.is_number_integer() ? "a negative number" : kind_of(j)));
  uint64_t v = j.get<uint64_t>();
  if (v < min || v > max)
    spec.fail(path, "value " + std::to_string(v) + " is outside " + std::to_string(min) + ".." +
                        std::to_string(max));
  return v;
}

Dim3 get_dims(const LaunchSpec& spec, const std::string& path, const json& j) {
  const uint64_t max = std::numeric_limits<uint32_t>::max();
  if (j.is_number()) return Dim3(static_cast<uint32_t>(get_uint(spec, path, j, 1, max)));
  if (!j.is_array() || j.empty() || j.size() > 3)
    spec.fail(path, "expected a positive integer or an array of 1 to 3 positive integers, got " +
                        kind_of(j));
  uint32_t d[3] = {1, 1, 1};
  for (size_t i = 0; i < j.size(); ++i)
    d[i] = static_cast<uint32_t>(get_uint(spec, path + "[" + std::to_string(i) + "]", j[i], 1, max));
  return Dim3(d[0], d[1], d[2]);
}

// Scalar kernel-argument and random-element types.
bool parse_value_type(const std::string& text, ir::DataType& out) {
  if (!ir::parse_type(text, out)) return false;
  switch (out) {
    case ir::DataType::U8: case ir::DataType::U16: case ir::DataType::U32: case ir::DataType::U64:
    case ir::DataType::S8: case ir::DataType::S16: case ir::DataType::S32: case ir::DataType::S64:
    case ir::DataType::B8: case ir::DataType::B16: case ir::DataType::B32: case ir::DataType::B64:
    case ir::DataType::F32: case ir::DataType::F64:
      return true;
    default:
      return false;
  }
}

const char* kTypeList = "u8, u16, u32, u64, s8, s16, s32, s64, b8, b16, b32, b64, f32, f64";

ir::DataType get_type(const LaunchSpec& spec, const std::string& path, const json& j) {
  ir::DataType t = ir::DataType::None;
  if (!j.is_string()) spec.fail(path, "expected a type name string, got " + kind_of(j));
  std::string name = j.get<std::string>();
  if (!name.empty() && name[0] == '.') name.erase(0, 1);
  if (!parse_value_type(name, t))
    spec.fail(path, "unknown type '" + j.get<std::string>() + "' (expected " + kTypeList + ")");
  return t;
}

std::vector<uint8_t> scalar_bytes(const LaunchSpec& spec, const std::string& path,
                                  ir::DataType type, const json& value) {
  const unsigned size = ir::type_size(type);
  std::vector<uint8_t> bytes(size);
  if (type == ir::DataType::F32 || type == ir::DataType::F64) {
    if (!value.is_number()) spec.fail(path, "expected a number, got " + kind_of(value));
    double d = value.get<double>();
    if (type == ir::DataType::F32 && std::fabs(d) > std::numeric_limits<float>::max())
      spec.fail(path, value.dump() + " is beyond the range of .f32 (largest " +
                          std::to_string(std::numeric_limits<float>::max()) + ")");
    if (type == ir::DataType::F32) {
      float f = static_cast<float>(d);
      std::memcpy(bytes.data(), &f, 4);
    } else {
      std::memcpy(bytes.data(), &d, 8);
    }
    return bytes;
  }
  if (!value.is_number_integer())
    spec.fail(path, "expected an integer, got " + kind_of(value));
  const unsigned bits = size * 8;
  const bool is_signed = ir::is_signed(type);
  const bool is_bits = ir::is_bits(type);
  uint64_t raw = 0;
  if (value.is_number_unsigned()) {
    uint64_t v = value.get<uint64_t>();
    uint64_t max = bits == 64 ? UINT64_MAX : (uint64_t(1) << bits) - 1;
    if (is_signed) max >>= 1;
    if (v > max)
      spec.fail(path, std::to_string(v) + " does not fit in ." + std::string(ir::type_name(type)));
    raw = v;
  } else {
    int64_t v = value.get<int64_t>();
    int64_t min = bits == 64 ? INT64_MIN : -(int64_t(1) << (bits - 1));
    if (!is_signed && !is_bits)
      spec.fail(path, "negative value " + std::to_string(v) + " for unsigned type ." +
                          std::string(ir::type_name(type)));
    if (v < min)
      spec.fail(path, std::to_string(v) + " does not fit in ." + std::string(ir::type_name(type)));
    raw = static_cast<uint64_t>(v);
  }
  std::memcpy(bytes.data(), &raw, size);  // little-endian host
  return bytes;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// A by-value aggregate (`.param .align 8 .b8 p[56]`): its bytes as given,
// {"bytes": "01 02 ff ..."} (hex, spaces allowed), {"bytes": [1, 2, 255]}, or
// {"file": "p.bin"} (the file's bytes, resolved against the spec's folder).
std::vector<uint8_t> raw_bytes(const LaunchSpec& spec, const std::string& path, const json& j) {
  std::vector<uint8_t> out;
  if (j.contains("file")) {
    check_keys(spec, path, j, {"file"});
    if (!j["file"].is_string()) spec.fail(path + ".file", "expected a path string, got " + kind_of(j["file"]));
    const fs::path file = spec.dir / j["file"].get<std::string>();
    std::error_code ec;
    if (!fs::is_regular_file(file, ec)) spec.fail(path + ".file", "input file '" + file.string() + "' not found");
    if (fs::file_size(file, ec) > kMaxRawArgBytes)
      spec.fail(path + ".file", "input file '" + file.string() + "' is larger than a kernel's parameters can be (" +
                                    std::to_string(kMaxRawArgBytes) + " bytes)");
    std::ifstream in(file, std::ios::binary);
    out.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    if (!in.good() && !in.eof()) spec.fail(path + ".file", "cannot read '" + file.string() + "'");
    return out;
  }
  check_keys(spec, path, j, {"bytes"});
  const json& b = j["bytes"];
  const std::string bp = path + ".bytes";
  if (b.is_array()) {
    for (size_t i = 0; i < b.size(); ++i)
      out.push_back(static_cast<uint8_t>(get_uint(spec, bp + "[" + std::to_string(i) + "]", b[i], 0, 255)));
  } else if (b.is_string()) {
    const std::string text = b.get<std::string>();
    int high = -1;
    for (char c : text) {
      if (c == ' ' || c == '\t' || c == '\n') {
        if (high >= 0) spec.fail(bp, "odd number of hex digits before a space");
        continue;
      }
      const int d = hex_digit(c);
      if (d < 0) spec.fail(bp, std::string("'") + c + "' is not a hex digit");
      if (high < 0) {
        high = d;
      } else {
        out.push_back(static_cast<uint8_t>(high * 16 + d));
        high = -1;
      }
    }
    if (high >= 0) spec.fail(bp, "odd number of hex digits");
  } else {
    spec.fail(bp, "expected a hex string or an array of byte values, got " + kind_of(b));
  }
  if (out.size() > kMaxRawArgBytes)
    spec.fail(bp, std::to_string(out.size()) + " bytes, more than a kernel's parameters can be (" +
                      std::to_string(kMaxRawArgBytes) + ")");
  return out;
}

ArgSpec parse_arg(const LaunchSpec& spec, size_t index, const json& j) {
  ArgSpec arg;
  arg.path = "args[" + std::to_string(index) + "]";
  if (!j.is_object())
    spec.fail(arg.path, "expected an object ({\"type\": ..., \"value\": ...}, {\"buffer\": ...}, "
                        "{\"bytes\": ...} or {\"file\": ...}), got " +
                            kind_of(j));
  if (j.contains("buffer")) {
    check_keys(spec, arg.path, j, {"buffer", "offset"});
    if (!j["buffer"].is_string())
      spec.fail(arg.path + ".buffer", "expected a buffer name string, got " + kind_of(j["buffer"]));
    arg.is_buffer = true;
    arg.buffer = j["buffer"].get<std::string>();
    if (j.contains("offset"))
      arg.offset = get_uint(spec, arg.path + ".offset", j["offset"], 0, UINT64_MAX);
    return arg;
  }
  if (j.contains("bytes") || j.contains("file")) {
    arg.type = kRawBytesType;
    arg.bytes = raw_bytes(spec, arg.path, j);
    return arg;
  }
  check_keys(spec, arg.path, j, {"type", "value"});
  if (!j.contains("type")) spec.fail(arg.path, "missing 'type' (or 'buffer', 'bytes', 'file')");
  if (!j.contains("value")) spec.fail(arg.path, "missing 'value'");
  ir::DataType type = get_type(spec, arg.path + ".type", j["type"]);
  arg.type = std::string(ir::type_name(type));
  arg.bytes = scalar_bytes(spec, arg.path + ".value", type, j["value"]);
  return arg;
}

BufferSpec parse_buffer(const LaunchSpec& spec, const std::string& name, const json& j) {
  BufferSpec b;
  b.name = name;
  b.path = "buffers." + name;
  if (!j.is_object()) spec.fail(b.path, "expected an object, got " + kind_of(j));
  check_keys(spec, b.path, j, {"size_bytes", "init", "output"});
  bool has_size = j.contains("size_bytes");
  if (has_size) b.size_bytes = get_uint(spec, b.path + ".size_bytes", j["size_bytes"], 0, uint64_t(1) << 40);
  if (j.contains("init")) {
    const json& init = j["init"];
    const std::string path = b.path + ".init";
    if (init.is_string()) {
      if (init.get<std::string>() != "zero")
        spec.fail(path, "unknown init '" + init.get<std::string>() +
                            "' (expected \"zero\", {\"random\": seed, \"type\": T} or {\"file\": path})");
    } else if (init.is_object() && init.contains("random")) {
      check_keys(spec, path, init, {"random", "type"});
      b.init = BufferInit::Random;
      b.seed = get_uint(spec, path + ".random", init["random"], 0, UINT64_MAX);
      if (init.contains("type")) b.random_type = get_type(spec, path + ".type", init["type"]);
      unsigned elem = ir::type_size(b.random_type);
      if (b.size_bytes % elem != 0)
        spec.fail(b.path + ".size_bytes", std::to_string(b.size_bytes) +
                                              " is not a multiple of the ." +
                                              std::string(ir::type_name(b.random_type)) +
                                              " element size (" + std::to_string(elem) + ")");
    } else if (init.is_object() && init.contains("file")) {
      check_keys(spec, path, init, {"file"});
      if (!init["file"].is_string())
        spec.fail(path + ".file", "expected a path string, got " + kind_of(init["file"]));
      b.init = BufferInit::File;
      b.file = spec.dir / init["file"].get<std::string>();
      std::error_code ec;
      if (!fs::is_regular_file(b.file, ec))
        spec.fail(path + ".file", "input file '" + b.file.string() + "' not found");
      uint64_t file_size = fs::file_size(b.file, ec);
      if (!has_size) {
        b.size_bytes = file_size;
      } else if (file_size != b.size_bytes) {
        spec.fail(path + ".file", "input file '" + b.file.string() + "' has " +
                                      std::to_string(file_size) + " bytes but size_bytes is " +
                                      std::to_string(b.size_bytes));
      }
      has_size = true;
    } else {
      spec.fail(path, "expected \"zero\", {\"random\": seed, \"type\": T} or {\"file\": path}, got " +
                          kind_of(init));
    }
  }
  if (!has_size) spec.fail(b.path, "missing 'size_bytes'");
  if (j.contains("output")) {
    if (!j["output"].is_string() || j["output"].get<std::string>().empty())
      spec.fail(b.path + ".output", "expected a non-empty path string, got " + kind_of(j["output"]));
    b.output = j["output"].get<std::string>();
  }
  return b;
}

}  // namespace

LaunchSpec parse_launch_spec(const json& j, const std::string& file, const fs::path& dir) {
  LaunchSpec spec;
  spec.file = file;
  spec.dir = dir;
  if (!j.is_object()) spec.fail("", "the top level must be a JSON object, got " + kind_of(j));
  check_keys(spec, "", j,
             {"description", "grid", "block", "dynamic_shared_bytes", "registers_per_thread", "args", "buffers"});
  if (!j.contains("grid")) spec.fail("", "missing 'grid'");
  if (!j.contains("block")) spec.fail("", "missing 'block'");
  spec.grid = get_dims(spec, "grid", j["grid"]);
  spec.block = get_dims(spec, "block", j["block"]);
  // CUDA's limit on a block's z dimension (x and y are bounded by the SM's
  // threads per CTA, checked at launch).
  if (spec.block.z > 64)
    spec.fail("block[2]", std::to_string(spec.block.z) + " is above CUDA's limit of 64 for a block's z dimension");
  if (j.contains("dynamic_shared_bytes"))
    spec.dynamic_shared_bytes = static_cast<uint32_t>(get_uint(
        spec, "dynamic_shared_bytes", j["dynamic_shared_bytes"], 0, UINT32_MAX));
  if (j.contains("registers_per_thread"))
    spec.registers_per_thread =
        static_cast<uint32_t>(get_uint(spec, "registers_per_thread", j["registers_per_thread"], 1, 255));

  if (j.contains("buffers")) {
    const json& buffers = j["buffers"];
    if (!buffers.is_object()) spec.fail("buffers", "expected an object, got " + kind_of(buffers));
    std::set<std::string> outputs;
    for (auto it = buffers.begin(); it != buffers.end(); ++it) {
      spec.buffers.push_back(parse_buffer(spec, it.key(), it.value()));
      const std::string& out = spec.buffers.back().output;
      if (!out.empty() && !outputs.insert(out).second)
        spec.fail(spec.buffers.back().path + ".output",
                  "output '" + out + "' is also the output of another buffer");
    }
  }
  if (j.contains("args")) {
    const json& args = j["args"];
    if (!args.is_array()) spec.fail("args", "expected an array, got " + kind_of(args));
    for (size_t i = 0; i < args.size(); ++i) {
      ArgSpec arg = parse_arg(spec, i, args[i]);
      if (arg.is_buffer) {
        const BufferSpec* b = spec.find_buffer(arg.buffer);
        if (!b) {
          std::string names;
          for (const BufferSpec& x : spec.buffers) names += (names.empty() ? "" : ", ") + x.name;
          spec.fail(arg.path, "unknown buffer '" + arg.buffer + "'" +
                                  (names.empty() ? " (no buffers are defined)"
                                                 : " (buffers: " + names + ")"));
        }
        if (arg.offset > b->size_bytes)
          spec.fail(arg.path + ".offset", "offset " + std::to_string(arg.offset) +
                                              " is past the end of buffer '" + b->name + "' (" +
                                              std::to_string(b->size_bytes) + " bytes)");
      }
      spec.args.push_back(std::move(arg));
    }
  }
  return spec;
}

LaunchSpec load_launch_spec(const std::string& path) {
  const json j = parse_json_input(read_json_file(path, "launch spec"), path, ErrorKind::Input);
  fs::path dir = fs::path(path).parent_path();
  return parse_launch_spec(j, path, dir);
}

std::vector<uint8_t> initial_contents(const LaunchSpec& spec, const BufferSpec& buffer) {
  std::vector<uint8_t> bytes(buffer.size_bytes, 0);
  switch (buffer.init) {
    case BufferInit::Zero:
      break;
    case BufferInit::Random: {
      // mt19937_64 is specified exactly by the standard: same seed, same bytes everywhere.
      std::mt19937_64 gen(buffer.seed);
      const unsigned elem = ir::type_size(buffer.random_type);
      for (uint64_t off = 0; off + elem <= bytes.size(); off += elem) {
        uint64_t x = gen();
        if (buffer.random_type == ir::DataType::F32) {
          float f = static_cast<float>(double(x >> 40) * 0x1p-24 * 2.0 - 1.0);
          std::memcpy(&bytes[off], &f, 4);
        } else if (buffer.random_type == ir::DataType::F64) {
          double d = double(x >> 11) * 0x1p-53 * 2.0 - 1.0;
          std::memcpy(&bytes[off], &d, 8);
        } else {
          std::memcpy(&bytes[off], &x, elem);
        }
      }
      break;
    }
    case BufferInit::File: {
      std::ifstream in(buffer.file, std::ios::binary);
      if (!in.read(reinterpret_cast<char*>(bytes.data()), std::streamsize(bytes.size())))
        spec.fail(buffer.path + ".init.file", "cannot read " + std::to_string(bytes.size()) +
                                                  " bytes from '" + buffer.file.string() + "'");
      break;
    }
  }
  return bytes;
}

}  // namespace simtlm::cli
