// The workload driver interface. Each workload is CUDA C (workloads/<name>/kernel.cu)
// compiled by nvcc to PTX (kernel.ptx, committed and embedded into the binary at
// build time) plus a driver (workloads/<name>/driver.cpp) that generates seeded
// inputs, launches the kernel(s) through simtlm::Device and checks the result
// against a CPU reference written independently of the kernel.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/device.h"

namespace simtlm::workloads {

enum class Size { Small, Default };

struct CheckResult {
  bool passed = false;
  std::string detail;  // e.g. "max abs error 1.2e-6 (tolerance 1e-4)" or the first mismatch
};

struct WorkloadInfo {
  std::string name;         // "sgemm"
  std::string description;  // one line
  std::string klass;        // occupancy/behaviour class (see docs/workloads.md)
  std::string ptx_name;     // name of the embedded PTX module (usually = name)
};

// One kernel of a workload as it is launched at the default size: the launch
// geometry that occupancy depends on. Registers and static shared memory come
// from the PTX (our allocator / ptxas), so only what the driver decides is
// declared here; a test checks the declaration against the real launches.
struct KernelShape {
  std::string kernel;                 // PTX entry name
  uint32_t threads_per_cta = 0;       // blockDim.x * y * z
  uint32_t dynamic_shared_bytes = 0;  // LaunchConfig::dynamic_shared_bytes
  // True when the kernel has the workload's class (its occupancy limiter is
  // asserted for the register-, scratchpad- and thread-limited classes);
  // false for auxiliary kernels (initialisation, a final small reduction).
  bool characteristic = true;
};

// A run argument a workload takes (`simtlm run NAME --arg key=value`).
struct RunArg {
  std::string name;         // "n"
  std::string description;  // one line: meaning, accepted values, default
};

class Workload {
 public:
  virtual ~Workload() = default;
  virtual WorkloadInfo info() const = 0;
  // Every kernel the workload launches, in first-launch order.
  virtual std::vector<KernelShape> kernel_shapes() const = 0;
  // Generate inputs (deterministically from `seed`), allocate and upload.
  virtual void setup(Device& dev, Size size, uint64_t seed) = 0;
  // Load the module and launch the kernel(s). Returns the per-launch stats.
  virtual std::vector<LaunchStats> run(Device& dev) = 0;
  // Download outputs and compare with the CPU reference.
  virtual CheckResult check(Device& dev) = 0;
  // True for warp-synchronous kernels written for CUDA's 32-lane warps
  // (shuffle offsets 16..1, lane = tid % 32): they are right only where the
  // warp a program sees has 32 lanes, i.e. at warp sizes 32 and 64 (the
  // collectives work on 32-lane halves there, functional/warp.h). setup()
  // refuses other sizes through check_warp_size() rather than FAIL silently.
  virtual bool assumes_32_lane_warps() const { return false; }
  // Run arguments beyond the two sizes (docs/workloads.md "Run arguments"):
  // the keys this workload takes; none by default.
  virtual std::vector<RunArg> run_args() const { return {}; }
  // The given arguments, before setup(). Only keys of run_args() reach it
  // (apply_run_args rejects others). Throws Error(Usage) naming the key for
  // a value it cannot take; setup() may reject combinations with the device's
  // configuration (Error(Config)) the same way.
  virtual void set_run_args(const std::map<std::string, std::string>& args) { (void)args; }
};

// Parses `items` ("key=value" each) and hands them to workload.set_run_args.
// Error(Usage) naming the item when it has no '=', repeats a key, or names a
// key the workload does not take (listing those it takes).
void apply_run_args(Workload& workload, const std::vector<std::string>& items);

// Throws Error(Config) naming the workload and the warp size when `workload`
// cannot give a right result at `warp_size` (see assumes_32_lane_warps).
void check_warp_size(const Workload& workload, unsigned warp_size);

using WorkloadFactory = std::function<std::unique_ptr<Workload>()>;

// Registry filled by static registrars in each driver.cpp.
struct WorkloadRegistry {
  static std::vector<std::pair<std::string, WorkloadFactory>>& entries();
  static std::unique_ptr<Workload> create(const std::string& name);  // nullptr if unknown
  static std::vector<std::string> names();                          // sorted
};

struct WorkloadRegistrar {
  WorkloadRegistrar(const std::string& name, WorkloadFactory factory) {
    WorkloadRegistry::entries().emplace_back(name, std::move(factory));
  }
};

// The embedded PTX text of workloads/<name>/kernel.ptx (generated source).
const std::string& embedded_ptx(const std::string& name);
// The embedded workloads/<name>/ptxas.txt (ptxas -v for sm_75, recorded by
// scripts/regen_ptx.sh); "" when the workload has none. See ptxas_record.h.
const std::string& embedded_ptxas(const std::string& name);

}  // namespace simtlm::workloads

#define SIMTLM_REGISTER_WORKLOAD(NAME, CLASS)                                  \
  static ::simtlm::workloads::WorkloadRegistrar simtlm_workload_registrar_##CLASS( \
      NAME, [] { return std::make_unique<CLASS>(); })
