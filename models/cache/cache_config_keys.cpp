// Configuration keys of the caches: the per-SM L1D (gpu.l1d.*) and the L2
// slices of the memory sub-partitions (gpu.l2.*).
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void l1d_keys(std::vector<ConfigKey>& t) {
  const char* const dl1 = "GPGPU-Sim -gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8 (GTX480 and TeslaC2050 3.x)";
  t.push_back(B("gpu.l1d.enabled", true,
                "L1 data cache present. false: global and local accesses go to the L2 (the SPU study runs "
                "with caches off).",
                "GPGPU-Sim GTX480/TeslaC2050 configs; Rajasree Table 6.1 (L1 on, 16 KB)"));
  t.push_back(B("gpu.l1d.cache_global", true,
                "Global loads are cached in the L1D (false = nvcc -dlcm=cg: only local memory is cached).",
                "GPGPU-Sim 4.x -gmem_skip_L1D 0"));
  t.push_back(B("gpu.l1d.cache_operators", true,
                "Honour the PTX cache operators of global accesses: ld.cg and ld.cv bypass the L1D; ld.cs, "
                "ld.lu and st.cs lines are inserted first in eviction order (L1D and L2) and hits do not "
                "promote them. false: every operator behaves as .ca/.wb.",
                "PTX ISA, Cache Operators; GPGPU-Sim bypasses the L1D for ld.cg"));
  t.push_back(U("gpu.l1d.sets", 32, "sets", 1, 65536, "L1D sets (power of two).", dl1));
  t.push_back(U("gpu.l1d.ways", 4, "ways", 1, 256, "L1D associativity.", dl1));
  t.push_back(U("gpu.l1d.line_bytes", 128, "bytes", 4, 4096, "L1D line size (power of two).", dl1));
  t.push_back(U("gpu.l1d.sector_bytes", 32, "bytes", 4, 4096,
                "L1D sector: unit of valid bits and of requests to the L2; equal to line_bytes for a "
                "non-sectored cache.",
                "simtlm issue text (GTX480: 32-byte sectors); Fermi 32-byte memory transactions"));
  t.push_back(U("gpu.l1d.size_bytes", 0, "bytes", 0, 16 * MiB,
                "Optional check: when non-zero it must equal sets x ways x line_bytes. 0 = derived, not checked.",
                kDecision));
  t.push_back(E("gpu.l1d.replacement", "lru", {"lru", "fifo"}, "L1D replacement policy.", dl1));
  t.push_back(E("gpu.l1d.set_index", "xor", {"linear", "xor"},
                "L1D set index function: address bits, or an XOR hash of higher bits (GPGPU-Sim 'H', the "
                "Fermi hash).",
                dl1));
  // gtx480's memory-side queue depths come from GPGPU-Sim 4.x's calibrated
  // GTX480 configuration, like its L1D latency, whose deeper queues sustain
  // the 100-cycle DRAM latency; tesla_c2050 keeps the 3.x TeslaC2050 depths
  // of the seeds' baseline (docs/config-reference.md, Decisions).
  t.push_back(U("gpu.l1d.mshrs", 64, "entries", 1, 4096, "L1D miss status holding registers.",
                std::string(kSm2) + " -gpgpu_cache:dl1 N:32:128:4,L:L:m:N:H,S:64:8,8; tesla_c2050: 3.x A:32:8"));
  t.push_back(
      U("gpu.l1d.mshr_merge", 8, "requests", 1, 1024, "Requests to the same line merged into one MSHR entry.", dl1));
  t.push_back(
      U("gpu.l1d.miss_queue_entries", 8, "requests", 1, 4096, "Misses waiting to enter the interconnect.", dl1));
  t.push_back(U("gpu.l1d.hit_latency", 35, "core cycles", 1, 4096, "L1D hit latency.", kG4));
  t.push_back(E("gpu.l1d.write_policy", "write_evict", {"write_evict", "write_through"},
                "Global stores: write_evict invalidates the L1 copy and writes to the L2 (Fermi; local stores "
                "are written back), write_through updates a present line and writes to the L2.",
                "GPGPU-Sim dl1 'L' (local write-back, global write-evict); Rogers §2.3"));
  t.push_back(B("gpu.l1d.write_allocate", false, "Store misses allocate a line in the L1D.",
                "GPGPU-Sim dl1 write-allocate 'N'"));
  t.push_back(E("gpu.l1d.allocate_on", "miss", {"miss", "fill"},
                "When a line is reserved: at the miss (GPGPU-Sim 'm') or when the data returns ('f').", dl1));
  t.push_back(B("gpu.l1d.locality_stats", false,
                "Classify L1D load hits and misses by the warp that allocated the line (intra-/inter-warp, "
                "compulsory; gpu.sm[i].l1d_locality.*, with MPKI). Keeps a record of every line ever cached.",
                "Rogers §1.4 locality taxonomy, Figs 3.1/3.12 (seed note 002 §1.4, §14.1 item 7)"));
}

void l2_keys(std::vector<ConfigKey>& t) {
  const char* const dl2 = "GPGPU-Sim -gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4:0,32 (per sub-partition)";
  t.push_back(B("gpu.l2.enabled", true, "L2 cache present; false: every access goes to the DRAM channel (SPU study).",
                "GPGPU-Sim GTX480/TeslaC2050 configs; Rajasree Table 6.1"));
  t.push_back(U("gpu.l2.sub_partitions_per_channel", 2, "sub-partitions", 1, 64,
                "L2 slices (memory sub-partitions) per DRAM channel; slices = channels x this.",
                "GPGPU-Sim -gpgpu_n_sub_partition_per_mchannel 2"));
  t.push_back(U("gpu.l2.sets", 64, "sets", 1, 1048576, "L2 sets per slice (power of two).", dl2));
  t.push_back(U("gpu.l2.ways", 8, "ways", 1, 256, "L2 associativity.", dl2));
  t.push_back(U("gpu.l2.line_bytes", 128, "bytes", 4, 4096, "L2 line size (must equal gpu.l1d.line_bytes).", dl2));
  t.push_back(U("gpu.l2.sector_bytes", 32, "bytes", 4, 4096,
                "L2 sector: unit of valid bits and DRAM requests (must equal gpu.l1d.sector_bytes).",
                "simtlm issue text (32-byte sectors); Fermi 32-byte memory transactions"));
  t.push_back(U("gpu.l2.size_bytes", 0, "bytes", 0, 1024 * MiB,
                "Optional check, per slice: when non-zero it must equal sets x ways x line_bytes (64 KB on "
                "GTX480; 768 KB in total). 0 = derived, not checked.",
                kDecision));
  t.push_back(E("gpu.l2.replacement", "lru", {"lru", "fifo"}, "L2 replacement policy.", dl2));
  t.push_back(E("gpu.l2.write_policy", "write_back", {"write_back", "write_through"}, "L2 write policy.", dl2));
  t.push_back(B("gpu.l2.write_allocate", true, "Store misses allocate a line in the L2.", dl2));
  t.push_back(E("gpu.l2.allocate_on", "miss", {"miss", "fill"}, "When an L2 line is reserved.", dl2));
  t.push_back(U("gpu.l2.mshrs", 256, "entries", 1, 4096, "L2 MSHRs per slice.",
                std::string(kSm2) + " -gpgpu_cache:dl2 S:64:128:8,L:B:m:L:L,A:256:4,4:0,32; tesla_c2050: 3.x "
                                   "A:32:4"));
  t.push_back(U("gpu.l2.mshr_merge", 4, "requests", 1, 1024, "Requests merged into one L2 MSHR entry.", dl2));
  t.push_back(U("gpu.l2.miss_queue_entries", 4, "requests", 1, 4096, "L2 misses waiting for the DRAM channel.", dl2));
  t.push_back(U("gpu.l2.hit_latency", 120, "L2 cycles", 1, 4096,
                "Fixed pipeline latency of an L2 slice access (GPGPU-Sim's ROP queue; core = L2 clock in both "
                "presets).",
                "GPGPU-Sim -rop_latency 120"));
  t.push_back(
      U("gpu.l2.data_port_bytes", 32, "bytes per L2 cycle", 1, 4096, "Data an L2 slice returns per cycle.", dl2));
  t.push_back(U("gpu.l2.request_queue_entries", 64, "requests", 1, 65536,
                "Queue from the interconnect into each slice.",
                std::string(kSm2) + " -gpgpu_dram_partition_queues 64:64:64:64 (icnt->L2); tesla_c2050: 3.x "
                                   "default 8:8:8:8"));
  t.push_back(U("gpu.l2.response_queue_entries", 64, "requests", 1, 65536,
                "Queue from each slice back to the interconnect (responses that have left the hit_latency pipeline).",
                std::string(kSm2) + " -gpgpu_dram_partition_queues 64:64:64:64 (L2->icnt); tesla_c2050: 3.x "
                                   "default 8:8:8:8"));
  t.push_back(E("gpu.l2.slice_hash", "linear", {"linear", "xor"},
                "Address -> slice: linear (chunk index modulo slices) or an XOR fold of higher address bits.",
                "GPGPU-Sim 4.x -memory_partition_indexing 0 (linear); 3.x has no hash"));
  t.push_back(U("gpu.l2.interleave_bytes", 256, "bytes", 4, 1 * MiB,
                "Consecutive chunks of this many bytes map to consecutive slices.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping dramid@8 (256-byte interleaving)"));
}

const Registration kL1d(kRankL1d, "l1d", &l1d_keys);
const Registration kL2(kRankL2, "l2", &l2_keys);

}  // namespace
}  // namespace simtlm::config_keys
