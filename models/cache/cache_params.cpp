#include "models/cache/cache_params.h"

#include "simtlm/error.h"

namespace simtlm::models {

const char* to_string(WritePolicy policy) {
  switch (policy) {
    case WritePolicy::WriteBack: return "write_back";
    case WritePolicy::WriteThrough: return "write_through";
    case WritePolicy::WriteEvict: return "write_evict";
  }
  return "?";
}

const char* to_string(ReplacementPolicy policy) {
  switch (policy) {
    case ReplacementPolicy::LRU: return "lru";
    case ReplacementPolicy::FIFO: return "fifo";
  }
  return "?";
}

const char* to_string(SetIndex index) {
  switch (index) {
    case SetIndex::Linear: return "linear";
    case SetIndex::Xor: return "xor";
  }
  return "?";
}

const char* to_string(AllocatePolicy policy) {
  switch (policy) {
    case AllocatePolicy::OnMiss: return "miss";
    case AllocatePolicy::OnFill: return "fill";
  }
  return "?";
}

bool parse_set_index(const std::string& name, SetIndex& out) {
  for (SetIndex v : {SetIndex::Linear, SetIndex::Xor}) {
    if (name == to_string(v)) {
      out = v;
      return true;
    }
  }
  return false;
}

bool parse_allocate_policy(const std::string& name, AllocatePolicy& out) {
  for (AllocatePolicy v : {AllocatePolicy::OnMiss, AllocatePolicy::OnFill}) {
    if (name == to_string(v)) {
      out = v;
      return true;
    }
  }
  return false;
}

bool parse_write_policy(const std::string& name, WritePolicy& out) {
  for (WritePolicy p : {WritePolicy::WriteBack, WritePolicy::WriteThrough, WritePolicy::WriteEvict}) {
    if (name == to_string(p)) {
      out = p;
      return true;
    }
  }
  return false;
}

bool parse_replacement_policy(const std::string& name, ReplacementPolicy& out) {
  for (ReplacementPolicy p : {ReplacementPolicy::LRU, ReplacementPolicy::FIFO}) {
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

void CacheParams::validate(const std::string& who) const {
  auto bad = [&](const std::string& field, const std::string& why) {
    throw Error(ErrorKind::Config, who + ": " + field + " " + why);
  };
  if (sets == 0) bad("sets", "must be at least 1");
  if (ways == 0) bad("ways", "must be at least 1");
  if (!power_of_two(line_bytes)) bad("line_bytes", "must be a power of two");
  if (!power_of_two(sector_bytes) || sector_bytes > line_bytes) {
    bad("sector_bytes", "must be a power of two not larger than line_bytes");
  }
  if (line_bytes / sector_bytes > 32) bad("sector_bytes", "gives more than 32 sectors per line");
  if (mshrs == 0) bad("mshrs", "must be at least 1");
  if (mshr_merge_limit == 0) bad("mshr_merge_limit", "must be at least 1");
  if (hit_latency == 0) bad("hit_latency", "must be at least 1 cycle");
  if (request_queue == 0) bad("request_queue", "must be at least 1");
  if (miss_queue == 0) bad("miss_queue", "must be at least 1");
  if (response_queue == 0) bad("response_queue", "must be at least 1");
  if (index_divisor == 0) bad("index_divisor", "must be at least 1");
  if (set_index == SetIndex::Xor && !power_of_two(sets)) bad("sets", "must be a power of two with set_index xor");
  if (clock_period == sc_core::SC_ZERO_TIME) bad("clock_period", "must be positive");
}

}  // namespace simtlm::models
