// Quick measurements of the timing platform on hand-written PTX kernels
// (the same microbenchmarks as testbenches/platform_timing), one case per
// process:  simtlm_platform_smoke CASE [key=value ...]
//   CASE: chase ELEMENTS STRIDE | smem STRIDE | stream | deadlock
#include <chrono>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include <nlohmann/json.hpp>

#include "simtlm/config.h"
#include "simtlm/device.h"
#include "testbenches/platform_timing/micro_ptx.h"

using namespace simtlm;

namespace {

double stat(const LaunchStats& s, const std::string& name) {
  auto j = nlohmann::json::parse(s.stats_json());
  return j.contains(name) && !j[name].is_null() ? j[name].get<double>() : -1.0;
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: simtlm_platform_smoke chase N STRIDE | smem STRIDE | stream | deadlock [k=v ...]\n");
    return 2;
  }
  try {
    const std::string what = argv[1];
    int first_override = what == "chase" ? 4 : what == "smem" ? 3 : 2;
    auto cfg = std::make_shared<Config>();
    for (int i = first_override; i < argc; ++i) cfg->apply_override(argv[i]);
    cfg->validate();
    DeviceOptions o;
    o.backend = Backend::Timing;
    o.config = cfg;
    o.num_sms = cfg->u32("gpu.num_sms");
    Device dev(o);
    const auto t0 = std::chrono::steady_clock::now();
    if (what == "chase") {
      const uint32_t elements = std::stoul(argv[2]), stride = std::stoul(argv[3]);
      ModuleHandle m = dev.load_module_string(test::kChasePtx, "chase.ptx");
      const uint64_t bytes = uint64_t(elements) * stride;
      DevicePtr buf = dev.malloc(bytes), out = dev.malloc(8);
      std::vector<uint8_t> host(bytes);
      for (uint32_t i = 0; i < elements; ++i) {
        uint64_t next = buf + uint64_t((i + 1) % elements) * stride;
        std::memcpy(&host[uint64_t(i) * stride], &next, 8);
      }
      dev.memcpy_to_device(buf, host.data(), bytes);
      LaunchConfig lc;
      lc.grid = Dim3(1);
      lc.block = Dim3(1);
      auto launch = [&](uint32_t iters) {
        KernelArgs a;
        a.add(buf).add(iters).add(out);
        return dev.launch(m, "chase", lc, a);
      };
      launch(2 * elements);
      LaunchStats a = launch(200), b = launch(1200);
      std::printf("chase: %.3f cycles/load (%llu, %llu)\n", double(b.cycles - a.cycles) / 1000.0,
                  (unsigned long long)a.cycles, (unsigned long long)b.cycles);
    } else if (what == "smem") {
      const uint32_t stride = std::stoul(argv[2]);
      ModuleHandle m = dev.load_module_string(test::kSmemPtx, "smem.ptx");
      DevicePtr out = dev.malloc(4);
      LaunchConfig lc;
      lc.grid = Dim3(1);
      lc.block = Dim3(256);
      auto launch = [&](uint32_t iters) {
        KernelArgs a;
        a.add(stride).add(iters).add(out);
        return dev.launch(m, "smem", lc, a);
      };
      LaunchStats a = launch(20), b = launch(120);
      std::printf("smem stride %u: %.3f cycles/access, passes/instr %.2f\n", stride,
                  double(b.cycles - a.cycles) / (100.0 * 64),
                  stat(b, "gpu.sm[0].smem_passes") / stat(b, "gpu.sm[0].smem_instructions"));
    } else if (what == "stream") {
      ModuleHandle m = dev.load_module_string(test::kStreamPtx, "stream.ptx");
      const uint32_t ctas = cfg->u32("gpu.num_sms") * 6, threads = 256, total = ctas * threads;
      const uint32_t n = total * 4 * 40;
      std::vector<uint32_t> in(n, 1);
      DevicePtr din = dev.upload(in), dout = dev.malloc(uint64_t(total) * 4);
      LaunchConfig lc;
      lc.grid = Dim3(ctas);
      lc.block = Dim3(threads);
      KernelArgs a;
      a.add(din).add(dout).add(n);
      LaunchStats s = dev.launch(m, "stream", lc, a);
      std::printf("stream: %llu cycles, %.1f GB/s (%.1f %% of %.1f), out[0]=%u\n", (unsigned long long)s.cycles,
                  stat(s, "gpu.dram_total.bandwidth_gbps"), 100 * stat(s, "gpu.dram_total.bandwidth_efficiency"),
                  stat(s, "gpu.dram_total.peak_gbps"), dev.download<uint32_t>(dout, 1)[0]);
    } else if (what == "deadlock") {
      std::printf("deadlock case: see the platform tests\n");
    }
    const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::printf("host %.2f s\n%s", secs, dev.backend_summary().c_str());
    return 0;
  } catch (const Error& e) {
    std::fprintf(stderr, "error: %s\n", e.what());
    return 3;
  }
}
