// The host-side runtime API: what a workload driver, a testbench or a CPU
// model in a virtual platform uses to talk to the simulated GPU. It mirrors the
// CUDA driver API in spirit (allocate, copy, load a PTX module, launch) and is
// independent of the backend: the functional executor (the correctness oracle)
// and the timing model plug in behind the same calls.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "simtlm/config.h"
#include "simtlm/error.h"

namespace simtlm {

using DevicePtr = uint64_t;

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
  Dim3() = default;
  Dim3(uint32_t x_, uint32_t y_ = 1, uint32_t z_ = 1) : x(x_), y(y_), z(z_) {}
  uint64_t count() const { return uint64_t(x) * y * z; }
};

// Kernel arguments in declaration order; each is the raw bytes of one .param.
// The runtime checks count and sizes against the kernel's signature.
class KernelArgs {
 public:
  template <typename T>
  KernelArgs& add(const T& value) {
    std::vector<uint8_t> bytes(sizeof(T));
    std::memcpy(bytes.data(), &value, sizeof(T));
    args_.push_back(std::move(bytes));
    return *this;
  }
  KernelArgs& add_bytes(std::vector<uint8_t> bytes) {
    args_.push_back(std::move(bytes));
    return *this;
  }
  const std::vector<std::vector<uint8_t>>& args() const { return args_; }
  size_t size() const { return args_.size(); }

 private:
  std::vector<std::vector<uint8_t>> args_;
};

struct LaunchConfig {
  Dim3 grid;
  Dim3 block;
  uint32_t dynamic_shared_bytes = 0;
};

// Figures of one launch. The functional backend fills the instruction counts;
// the timing backend also fills cycles and a per-kernel statistics dump.
struct LaunchStats {
  std::string kernel;
  uint64_t ctas = 0;
  uint32_t threads_per_cta = 0;      // launch geometry (blockDim.x * y * z)
  uint32_t dynamic_shared_bytes = 0;
  uint64_t warp_instructions = 0;    // issued warp-level instructions
  uint64_t thread_instructions = 0;  // sum of active lanes over issued instructions
  uint64_t cycles = 0;               // core cycles (timing backend only)
  // Global-memory load/store/atomic accesses at element granularity (one per
  // executing lane and vector element; SPU launches include the virtual IUs'
  // spilled and restored words): the SPU study's off-chip I/O measure.
  uint64_t offchip_accesses = 0;
  // SPU launches (docs/spu.md, "Passes"; zero / empty otherwise): the passes
  // run, and the faces each physical interface unit spilled and restored as
  // a virtual IU (index k as the platform's iu[k]: north by column, west,
  // south, east by row).
  uint32_t spu_passes = 0;
  std::vector<uint64_t> viu_spills, viu_restores;
  double host_seconds = 0.0;         // wall time spent simulating this launch
  // Registers per thread that CTA admission used and where the count came
  // from: "ptxas", "launch_spec", "allocator" (configured) or
  // "allocator_fallback" (no ptxas count known); see gpu.sm.register_count_source.
  uint32_t regs_per_thread = 0;
  std::string register_count_source;
  std::string register_count_detail;  // e.g. which ptxas, or why it was not used
  // Device printf: calls made, and calls whose output did not fit in
  // sim.printf_buffer_bytes (dropped, the last ones in the output order).
  uint64_t printf_calls = 0;
  uint64_t printf_dropped = 0;

  // Backend-specific detail as JSON text (the timing backend: every statistic
  // of this launch's window, tens of kB), empty when the backend has none.
  // Made at the first call and kept (copies of this LaunchStats share it):
  // a run of many short launches does not pay for text nobody reads.
  const std::string& stats_json() const;
  bool has_stats_json() const { return stats_json_ != nullptr; }
  // For backends: how to make the text.
  void set_stats_json_source(std::function<std::string()> make);

 private:
  class LazyText;
  std::shared_ptr<LazyText> stats_json_;
};

enum class Backend { Functional, Timing };

// How far a running launch has got (DeviceOptions::progress).
struct LaunchProgress {
  uint64_t launch = 0;             // 1-based index of the launch on this device
  std::string kernel;
  bool timed = false;              // `cycles` is known (timing backend)
  uint64_t cycles = 0;             // core cycles since the launch started
  uint64_t warp_instructions = 0;  // issued since the launch started
  uint64_t ctas_done = 0;
  uint64_t ctas_total = 0;
  std::string hint;                // timing: "possible livelock: ..." when suspected, else ""
};

// A kernel's registers per thread as the toolchain reports them (ptxas's
// "Used N registers") or as the user gives them.
struct KnownRegisterCount {
  uint32_t registers = 0;         // 0: unknown after all, `detail` says why
  bool from_launch_spec = false;  // given by the user rather than by ptxas
  std::string detail;             // where it comes from, for the summary
};
// Looks up the known count of kernel `kernel` of the module loaded under
// `module_name` (the name given to load_module_string, or the path given to
// load_module_file); std::nullopt when none is known.
using RegisterCountLookup =
    std::function<std::optional<KnownRegisterCount>(const std::string& module_name, const std::string& kernel)>;

struct DeviceOptions {
  Backend backend = Backend::Functional;
  unsigned warp_size = 32;           // 1..64
  // Launch limits checked before a launch (defaults: a Fermi/Turing-class part).
  uint32_t max_threads_per_cta = 1024;
  uint32_t max_shared_bytes_per_cta = 48 * 1024;
  uint32_t max_grid_dim[3] = {0x7FFFFFFFu, 65535u, 65535u};
  uint32_t num_sms = 15;             // reported by %nsmid
  // Timing backend: the simulated GPU (nullptr = the built-in gtx480 defaults).
  // Validated when the device is created (Error(Config)).
  std::shared_ptr<const Config> config;
  // Called while launches run: the timing backend every 20000 simulated
  // cycles, the functional backend after every CTA, and both once when a
  // launch completes. Only observes: the results do not depend on it.
  std::function<void(const LaunchProgress&)> progress;
  // Where kernels' printf output goes (CUDA device printf): called once per
  // launch that printed, after the launch (also when it then failed), with
  // the text of all its calls ordered by CTA, thread and program order
  // (functional/printf_buffer.h). Unset: written to the process's stdout.
  std::function<void(const std::string&)> printf_output;
  // How many launches' records the device keeps: launch_history() and the
  // per-kernel windows of backend_stats_json() hold the last `launch_records`
  // launches (0: every launch). Each record of the timing backend holds every
  // statistic of the platform (about 130 kB on gtx480), so a long-lived
  // virtual platform sets a bound; launch() still returns each launch's
  // statistics, and the totals always cover every launch.
  size_t launch_records = 0;
  // Known toolchain register counts (the built-in workloads' recorded ptxas
  // counts, ptxas run on a user's PTX, a launch spec). With
  // gpu.sm.register_count_source = ptxas a known count replaces our
  // allocator's estimate for CTA admission; unset = none known.
  RegisterCountLookup known_register_counts;
};

using ModuleHandle = uint32_t;

class DeviceImpl;

class Device {
 public:
  explicit Device(DeviceOptions options = {});
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const DeviceOptions& options() const;

  // Device memory. malloc returns 256-byte aligned, never-zero addresses;
  // freeing an unknown pointer throws Error(Launch).
  DevicePtr malloc(size_t bytes);
  void free(DevicePtr ptr);
  void memcpy_to_device(DevicePtr dst, const void* src, size_t bytes);
  void memcpy_to_host(void* dst, DevicePtr src, size_t bytes);
  void memset(DevicePtr dst, int value, size_t bytes);

  template <typename T>
  DevicePtr upload(const std::vector<T>& host) {
    DevicePtr p = malloc(host.size() * sizeof(T));
    memcpy_to_device(p, host.data(), host.size() * sizeof(T));
    return p;
  }
  template <typename T>
  std::vector<T> download(DevicePtr src, size_t count) {
    std::vector<T> host(count);
    memcpy_to_host(host.data(), src, count * sizeof(T));
    return host;
  }

  // Modules. Parsing errors throw Error(Ptx) with file:line:column.
  ModuleHandle load_module_file(const std::string& path);
  ModuleHandle load_module_string(const std::string& ptx_text, const std::string& name);

  // Launch a kernel and run it to completion (launches are synchronous).
  LaunchStats launch(ModuleHandle module, const std::string& kernel, const LaunchConfig& cfg,
                     const KernelArgs& args);
  void synchronize();

  // Every launch since construction, oldest first (the last
  // DeviceOptions::launch_records of them when that is set).
  const std::vector<LaunchStats>& launch_history() const;
  // Backend statistics of every launch so far: the timing backend's
  // statistics tree as JSON ({"format", "meta", "kernels", "total"}) and a
  // readable summary of the total; both empty for the functional backend.
  std::string backend_stats_json() const;
  std::string backend_summary() const;

  DeviceImpl& impl();
  const DeviceImpl& impl() const;

 private:
  std::unique_ptr<DeviceImpl> impl_;
};

}  // namespace simtlm
