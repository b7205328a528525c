// Parameters of one DRAM channel controller (DRAMSys-style plain struct).
// All timings are in DRAM command-clock cycles (clock_period).
#pragma once

#include <cstdint>
#include <string>

#include <systemc>

namespace simtlm {
class Config;
}

namespace simtlm::models {

enum class DramScheduler {
  FrFcfs,  // first-ready (row hits) first, then oldest
  Fcfs,    // strictly the oldest request
};
enum class PagePolicy {
  Open,   // rows stay open after an access
  Close,  // a row is precharged as soon as no queued request hits it
};
const char* to_string(DramScheduler scheduler);
const char* to_string(PagePolicy policy);
bool parse_dram_scheduler(const std::string& name, DramScheduler& out);  // "frfcfs" | "fcfs"
bool parse_page_policy(const std::string& name, PagePolicy& out);        // "open" | "close"

struct DramTiming {
  uint32_t tCL = 12;    // RD command -> first read data
  uint32_t tWL = 4;     // WR command -> first write data
  uint32_t tRCD = 12;   // ACT -> RD/WR, same bank
  uint32_t tRP = 12;    // PRE -> ACT, same bank
  uint32_t tRAS = 28;   // ACT -> PRE, same bank
  uint32_t tRC = 40;    // ACT -> ACT, same bank
  uint32_t tRRD = 6;    // ACT -> ACT, any two banks
  uint32_t tCCD = 2;    // column -> column, different bank groups
  uint32_t tCCDL = 3;   // column -> column, same bank group
  uint32_t tWR = 12;    // end of write data -> PRE, same bank
  uint32_t tWTR = 5;    // end of write data -> RD, same bank group
  uint32_t tCDLR = 5;   // end of write data -> RD, other bank groups
  uint32_t tRTP = 2;    // RD -> PRE, same bank
  uint32_t tRTPL = 2;   // RD -> PRE, any bank of the same bank group
  uint32_t tRTW = 2;    // bus turnaround: end of read data -> start of write data
};

struct DramParams {
  uint32_t banks = 16;               // banks per channel (all bank groups)
  uint32_t bank_groups = 4;          // banks % bank_groups == 0
  uint32_t row_bytes = 2048;         // row (page) size per bank
  uint32_t bus_width_bytes = 4;      // data bus width of this channel (all its chips side by side)
  uint32_t burst_length = 8;         // transfers per burst
  uint32_t data_rate = 4;            // transfers per command-clock cycle
  uint32_t queue_size = 32;          // request queue entries (END_REQ delayed when full)
  // Responses (completed requests) waiting to go back; when full, no column
  // command is issued. 0 = unbounded.
  uint32_t return_queue_size = 0;
  DramScheduler scheduler = DramScheduler::FrFcfs;
  PagePolicy page_policy = PagePolicy::Open;
  DramTiming timing;
  // Address mapping (see DramAddressMap). From the least significant end of
  // the channel-local address: bank_interleave_bytes of column, low_bank_bits
  // bank bits, the rest of the column, the remaining bank bits, the row.
  // low_bank_bits = kAllBankBits (the default) puts every bank below the
  // high column bits (works for any number of banks); 0 keeps a whole row in
  // one bank before the next bank. Optional XOR of the bank with the row number, and the
  // channel interleave to strip (channels * channel_interleave_bytes).
  uint32_t bank_interleave_bytes = 256;
  static constexpr uint32_t kAllBankBits = 32;
  uint32_t low_bank_bits = kAllBankBits;
  // Banks taking turns every bank_interleave_bytes: 2^low_bank_bits, or banks.
  uint32_t low_banks() const { return low_bank_bits >= kAllBankBits ? banks : 1u << low_bank_bits; }
  bool bank_xor = false;
  uint32_t channels = 1;
  uint32_t channel_interleave_bytes = 256;
  // Fixed controller delays (cycles): arrival -> schedulable, last data -> response.
  // The front end is a pipeline in front of the request queue: a request in
  // it does not occupy a queue entry; it holds at most frontend_latency
  // requests (one accepted per cycle per stage) and stalls when the queue is
  // full at its end.
  uint32_t frontend_latency = 0;
  uint32_t backend_latency = 0;
  sc_core::sc_time clock_period = sc_core::sc_time(1, sc_core::SC_NS);

  uint32_t burst_bytes() const { return bus_width_bytes * burst_length; }
  uint32_t burst_cycles() const { return burst_length / data_rate; }  // data-bus occupancy of one burst
  double peak_bytes_per_cycle() const { return static_cast<double>(bus_width_bytes) * data_rate; }
  // Throws simtlm::Error(Config) naming `who` and the offending field.
  void validate(const std::string& who) const;
};

// A channel from gpu.dram.* (dram_config.cpp); `channel_interleave` is the
// bytes of one channel's chunk of the address space (the platform's slice
// interleave times the sub-partitions per channel).
DramParams dram_params_from_config(const Config& cfg, uint64_t channel_interleave);

}  // namespace simtlm::models
