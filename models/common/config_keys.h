// Building blocks of the configuration schema's fragments. Each module folder
// declares its own keys in a <module>_config_keys.cpp that registers one
// fragment (or a few) with a rank; the one table (config_schema()) is every
// registered fragment in rank order, so validation, `simtlm config describe`
// and docs/config-reference.md see one merged table:
//
//   // models/noc/noc_config_keys.cpp
//   namespace simtlm::config_keys {
//   namespace {
//   void noc_keys(std::vector<ConfigKey>& t) {
//     t.push_back(U("gpu.noc.latency", 5, "noc cycles", 1, 1000, "Traversal latency ...", kIcnt));
//   }
//   const Registration kNoc(kRankNoc, "noc", &noc_keys);
//   }  // namespace
//   }  // namespace simtlm::config_keys
//
// A key's value here is the built-in default (= the gtx480 preset); the other
// presets' values are in configs/<preset>.json, which must name every key.
//
// Everything here is inline (no out-of-line symbol), because the *_config_keys
// files are linked whole from their own archive (models/CMakeLists.txt): no
// code refers to them, they only register.
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "simtlm/config.h"

namespace simtlm::config_keys {

// One module's keys, appended to the table in registration rank order.
struct Fragment {
  int rank;
  const char* name;
  void (*add)(std::vector<ConfigKey>& table);
};

inline std::vector<Fragment>& fragments() {
  static std::vector<Fragment> registered;
  return registered;
}

struct Registration {
  Registration(int rank, const char* name, void (*add)(std::vector<ConfigKey>&)) {
    fragments().push_back(Fragment{rank, name, add});
  }
};

// Ranks of today's fragments (the table's order). A new module takes a free
// rank where its keys belong (e.g. 350 for keys between the SM's and the L1D's).
constexpr int kRankSim = 100;           // models/common/sim_config_keys.cpp
constexpr int kRankFrontend = 150;      // models/common/frontend_config_keys.cpp
constexpr int kRankGpu = 200;           // models/common/gpu_config_keys.cpp (gpu.name, num_sms, memory)
constexpr int kRankSm = 300;            // models/sm/sm_config_keys.cpp
constexpr int kRankVws = 350;           // models/vws/vws_config_keys.cpp
constexpr int kRankL1d = 400;           // models/cache/cache_config_keys.cpp
constexpr int kRankConstCache = 500;    // models/sm/sm_config_keys.cpp
constexpr int kRankNoc = 600;           // models/noc/noc_config_keys.cpp
constexpr int kRankL2 = 700;            // models/cache/cache_config_keys.cpp
constexpr int kRankDram = 800;          // models/dram/dram_config_keys.cpp
constexpr int kRankClocks = 900;        // models/common/gpu_config_keys.cpp
constexpr int kRankPower = 950;         // models/power/power_config_keys.cpp
constexpr int kRankSpu = 960;           // models/spu/spu_config_keys.cpp

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();
constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * KiB;
constexpr std::uint64_t GiB = 1024 * MiB;

// Sources shared by several modules. "G3" = GPGPU-Sim 3.x shipped configs read
// from gpgpu-sim_distribution; the seeds' simulators (Jatala, Rajasree, Rogers)
// are GPGPU-Sim 3.x.
inline const char* const kG3 =
    "GTX480: GPGPU-Sim 3.x configs/GTX480/gpgpusim.config; C2050: GPGPU-Sim 3.x "
    "configs/3.x-cfgs/TeslaC2050/gpgpusim.config (seed notes 000 §3.1, 003 §2.2)";
inline const char* const kDecision = "simtlm decision (docs/config-reference.md, Decisions)";
inline const char* const kIcnt = "GPGPU-Sim configs/GTX480/config_fermi_islip.icnt (same file for TeslaC2050)";
inline const char* const kG4 =
    "GPGPU-Sim 4.x configs/4.x-cfgs/SM2_GTX480/gpgpusim.config (calibrated Fermi latencies); same for C2050";
inline const char* const kRogers = "Rogers thesis Table 3.3 / 4.3 (seed note 002 §5.6)";
inline const char* const kJatalaCh4 = "Jatala thesis Ch. 4, Table 4.2 (seed note 000 §2.12, §3.3)";
inline const char* const kJatalaShare = "Jatala thesis §2.2, Table 2.3: t = 0.1 (seed note 000 §2.2, §3.1)";
// Queue depths of the gtx480 preset (caches, DRAM).
inline const char* const kSm2 = "gtx480: GPGPU-Sim 4.x configs/tested-cfgs/SM2_GTX480";
inline const char* const kDramTiming =
    "GPGPU-Sim GTX480/TeslaC2050 -gpgpu_dram_timing_opt (Hynix H5GQ1H24AFR GDDR5); C2050 also Jatala Table 2.3";

inline ConfigKey make(const std::string& path, ConfigType type, ConfigValue value, const std::string& unit,
                      ConfigValue lo, ConfigValue hi, std::vector<std::string> allowed, const std::string& desc,
                      const std::string& source) {
  ConfigKey k;
  k.path = path;
  k.type = type;
  k.default_value = std::move(value);
  k.unit = unit;
  k.min = std::move(lo);
  k.max = std::move(hi);
  k.allowed = std::move(allowed);
  k.description = desc;
  k.source = source;
  return k;
}

// One key of each type: path, built-in default, unit, range (numbers), meaning,
// source of the shipped presets' values.
inline ConfigKey U(const std::string& path, std::uint64_t value, const std::string& unit, std::uint64_t lo,
                   std::uint64_t hi, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::UInt, value, unit, lo, hi, {}, desc, source);
}
inline ConfigKey I(const std::string& path, std::int64_t value, const std::string& unit, std::int64_t lo,
                   std::int64_t hi, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Int, value, unit, lo, hi, {}, desc, source);
}
inline ConfigKey D(const std::string& path, double value, const std::string& unit, double lo, double hi,
                   const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Double, value, unit, lo, hi, {}, desc, source);
}
inline ConfigKey B(const std::string& path, bool value, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::Bool, value, "", false, true, {}, desc, source);
}
inline ConfigKey S(const std::string& path, const char* value, const std::string& desc, const std::string& source) {
  return make(path, ConfigType::String, std::string(value), "", std::string(), std::string(), {}, desc, source);
}
// An enum: `allowed` are the built values; `planned` are values the schema
// names but nothing implements yet, rejected at load with "not built yet".
inline ConfigKey E(const std::string& path, const char* value, std::vector<std::string> allowed,
                   const std::string& desc, const std::string& source, std::vector<std::string> planned = {}) {
  ConfigKey k = make(path, ConfigType::Enum, std::string(value), "", std::string(), std::string(), std::move(allowed),
                     desc, source);
  k.planned = std::move(planned);
  return k;
}

}  // namespace simtlm::config_keys
