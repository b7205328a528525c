// Configuration keys of the DRAM channels (gpu.dram.*, gpu.dram.timing.*).
#include <cstdint>
#include <string>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void dram_keys(std::vector<ConfigKey>& t) {
  t.push_back(U("gpu.dram.channels", 6, "channels", 1, 1024,
                "DRAM channels (memory controllers); 6 x 64-bit = 384-bit on Fermi.", "GPGPU-Sim -gpgpu_n_mem 6"));
  t.push_back(U("gpu.dram.banks", 16, "banks", 1, 1024, "Banks per DRAM chip.", kDramTiming));
  t.push_back(U("gpu.dram.bank_groups", 4, "bank groups", 1, 64,
                "GDDR5 bank groups (banks must be a multiple); 1 disables bank groups.", kDramTiming));
  t.push_back(U("gpu.dram.bus_width_bytes", 4, "bytes", 1, 64, "Data bus width of one DRAM chip.",
                "GPGPU-Sim -gpgpu_dram_buswidth 4"));
  t.push_back(U("gpu.dram.chips_per_channel", 2, "chips", 1, 64, "DRAM chips per channel (side by side).",
                "GPGPU-Sim -gpgpu_n_mem_per_ctrlr 2"));
  t.push_back(U("gpu.dram.burst_length", 8, "transfers", 1, 64,
                "Burst length; one burst moves bus_width x chips x burst_length bytes (64 B).",
                "GPGPU-Sim -gpgpu_dram_burst_length 8"));
  t.push_back(U("gpu.dram.data_rate", 4, "transfers per command cycle", 1, 16,
                "Data transfers per DRAM command-clock cycle (GDDR5 = 4, QDR).",
                "GPGPU-Sim -dram_data_command_freq_ratio 4"));
  t.push_back(U("gpu.dram.row_bytes", 4096, "bytes", 64, 1 * MiB,
                "Row (page) of one bank across the channel's whole data bus (2 KB per chip x 2 chips).",
                "GPGPU-Sim -gpgpu_mem_addr_mapping (6 column bits x 64-byte bursts)"));
  t.push_back(U("gpu.dram.queue_size", 64, "requests", 1, 65536, "Request queue the channel scheduler chooses from.",
                std::string(kSm2) + " -gpgpu_frfcfs_dram_sched_queue_size 64; tesla_c2050: 3.x 16 (seed note "
                                   "000 §3.1)"));
  t.push_back(U("gpu.dram.return_queue_size", 116, "requests", 1, 65536, "Returned data waiting for the L2 slice.",
                "GPGPU-Sim -gpgpu_dram_return_queue_size (GTX480 116, TeslaC2050 3.x 114)"));
  t.push_back(E("gpu.dram.scheduler", "frfcfs", {"frfcfs", "fcfs"},
                "Channel scheduler: first-ready first-come-first-served (row hits first) or in order.",
                "GPGPU-Sim -gpgpu_dram_scheduler 1 (FR-FCFS); Jatala Table 2.3"));
  t.push_back(E("gpu.dram.page_policy", "open", {"open", "close"},
                "Row buffer policy: keep the row open after an access, or precharge when no queued request hits it.",
                "GPGPU-Sim 3.x DRAM model (open row)"));
  t.push_back(U("gpu.dram.bank_interleave_bytes", 512, "bytes", 32, 1 * MiB,
                "Low column bytes of a channel's local address (channel bits removed) below the first bank "
                "bit: |row|high bank bits|high column|low bank bits|this many bytes|. Here one channel "
                "interleave chunk (l2.interleave_bytes x sub_partitions_per_channel), so a chunk stays in one row.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping ...BBBCCCCB.CCSSSSSS (column below the first bank bit; "
                "GPGPU-Sim's channel chunk is 256 B, ours holds both sub-partitions)"));
  t.push_back(U("gpu.dram.low_bank_bits", 1, "bits", 0, 16,
                "Bank bits between the low and the high column bits (the rest sit above the high column "
                "bits): 2^bits banks take turns every bank_interleave_bytes and each fills a whole row first.",
                "GPGPU-Sim -gpgpu_mem_addr_mapping ...BBBCCCCB.CCSSSSSS (one bank bit below the high "
                "column bits, three above)"));
  t.push_back(B("gpu.dram.bank_xor", false,
                "XOR the bank index with low row bits to spread power-of-two strides over the banks.",
                "GPGPU-Sim 3.x GTX480/TeslaC2050 configs (no bank hashing)"));
  t.push_back(U("gpu.dram.fixed_latency", 100, "L2 cycles", 0, 4096,
                "Fixed pipeline latency between an L2 slice and its DRAM channel (GPGPU-Sim's DRAM latency "
                "queue; core = L2 clock in both presets).",
                "GPGPU-Sim -dram_latency 100"));
  struct Timing {
    const char* name;
    std::uint64_t value;
    const char* desc;
    const char* source;
  };
  const Timing timings[] = {
      {"tCL", 12, "CAS (read) latency: read command to first data.", kDramTiming},
      {"tWL", 4, "Write latency: write command to first data.", kDramTiming},
      {"tRCD", 12, "Activate to read/write command (same bank).", kDramTiming},
      {"tRP", 12, "Precharge to activate (same bank).", kDramTiming},
      {"tRAS", 28, "Activate to precharge (same bank).", kDramTiming},
      {"tRC", 40, "Activate to activate (same bank); at least tRAS + tRP.", kDramTiming},
      {"tRRD", 6, "Activate to activate (different banks).", kDramTiming},
      {"tCCD", 2, "Column command to column command (different bank groups).", kDramTiming},
      {"tCCDL", 3, "Column command to column command (same bank group); without bank groups give tCCD (at least 1).", kDramTiming},
      {"tWR", 12, "Write recovery: end of write data to precharge.", kDramTiming},
      {"tWTR", 5,
       "Write to read turnaround in the same bank group: end of write data to read command (a read follows a "
       "write command after tWL + burst_length / data_rate + tWTR).",
       "simtlm decision: = tCDLR; GPGPU-Sim has no tWTR option and derives write-to-read as WL + BL/ratio + CDLR"},
      {"tCDLR", 5, "Last write data in to read command, other bank groups (GDDR5 tCDLR).", kDramTiming},
      {"tRTP", 2, "Read to precharge, same bank.",
       "simtlm decision: burst_length / data_rate = 2 (GPGPU-Sim's string gives only tRTPL)"},
      {"tRTPL", 2, "Read to precharge, any bank of the same bank group; 0 without bank groups.", kDramTiming},
      {"tRTW", 2, "Read to write bus turnaround: end of read data to start of write data.",
       "simtlm decision: GPGPU-Sim spaces a write CL + BL/ratio + 2 - WL after a read, i.e. 2 idle bus cycles"},
  };
  for (const Timing& tm : timings) {
    t.push_back(U(std::string("gpu.dram.timing.") + tm.name, tm.value, "DRAM cycles", 0, 1024, tm.desc, tm.source));
  }
}

const Registration kDram(kRankDram, "dram", &dram_keys);

}  // namespace
}  // namespace simtlm::config_keys
