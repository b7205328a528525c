#include "models/dram/dram_params.h"

#include "simtlm/error.h"

namespace simtlm::models {

const char* to_string(DramScheduler scheduler) {
  switch (scheduler) {
    case DramScheduler::FrFcfs: return "frfcfs";
    case DramScheduler::Fcfs: return "fcfs";
  }
  return "?";
}

bool parse_dram_scheduler(const std::string& name, DramScheduler& out) {
  for (DramScheduler s : {DramScheduler::FrFcfs, DramScheduler::Fcfs}) {
    if (name == to_string(s)) {
      out = s;
      return true;
    }
  }
  return false;
}

const char* to_string(PagePolicy policy) {
  switch (policy) {
    case PagePolicy::Open: return "open";
    case PagePolicy::Close: return "close";
  }
  return "?";
}

bool parse_page_policy(const std::string& name, PagePolicy& out) {
  for (PagePolicy p : {PagePolicy::Open, PagePolicy::Close}) {
    if (name == to_string(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

namespace {
bool power_of_two(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }
}  // namespace

void DramParams::validate(const std::string& who) const {
  auto bad = [&](const std::string& field, const std::string& why) {
    throw Error(ErrorKind::Config, who + ": " + field + " " + why);
  };
  if (banks == 0) bad("banks", "must be at least 1");
  if (bank_groups == 0 || banks % bank_groups != 0) bad("bank_groups", "must divide banks");
  if (!power_of_two(row_bytes)) bad("row_bytes", "must be a power of two");
  if (bus_width_bytes == 0) bad("bus_width_bytes", "must be at least 1");
  if (burst_length == 0) bad("burst_length", "must be at least 1");
  if (data_rate == 0 || burst_length % data_rate != 0) bad("data_rate", "must divide burst_length");
  if (queue_size == 0) bad("queue_size", "must be at least 1");
  if (!power_of_two(bank_interleave_bytes) || bank_interleave_bytes > row_bytes) {
    bad("bank_interleave_bytes", "must be a power of two not larger than row_bytes");
  }
  if (bank_interleave_bytes < burst_bytes()) bad("bank_interleave_bytes", "must be at least one burst");
  if (low_bank_bits < kAllBankBits && (low_bank_bits > 16 || banks % (1u << low_bank_bits) != 0)) {
    bad("low_bank_bits", "must leave banks a multiple of 2^low_bank_bits");
  }
  if (bank_xor && !power_of_two(banks)) bad("bank_xor", "needs a power-of-two number of banks");
  if (channels == 0) bad("channels", "must be at least 1");
  if (channel_interleave_bytes == 0) bad("channel_interleave_bytes", "must be at least 1");
  if (timing.tCL == 0) bad("timing.tCL", "must be at least 1");
  if (timing.tRCD == 0) bad("timing.tRCD", "must be at least 1");
  if (timing.tRP == 0) bad("timing.tRP", "must be at least 1");
  if (timing.tCCD == 0) bad("timing.tCCD", "must be at least 1");
  if (timing.tCCDL == 0) bad("timing.tCCDL", "must be at least 1");
  if (timing.tRRD == 0) bad("timing.tRRD", "must be at least 1");
  if (clock_period == sc_core::SC_ZERO_TIME) bad("clock_period", "must be positive");
}

}  // namespace simtlm::models
