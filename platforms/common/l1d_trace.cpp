#include "platforms/common/l1d_trace.h"

#include <cinttypes>
#include <cstdio>

#include "simtlm/error.h"

namespace simtlm::platforms {

L1dTrace::L1dTrace(const std::string& path, const models::CacheParams& l1d, unsigned sms)
    : path_(path), buffer_(1 << 20) {
  out_.rdbuf()->pubsetbuf(buffer_.data(), static_cast<std::streamsize>(buffer_.size()));
  out_.open(path, std::ios::binary | std::ios::trunc);
  if (!out_) throw Error(ErrorKind::Input, "cannot write the L1D trace " + path + " (sim.trace.l1d_file)");
  out_ << "# simtlm l1d trace 1 sms=" << sms << " sets=" << l1d.sets << " ways=" << l1d.ways
       << " line_bytes=" << l1d.line_bytes << " set_index=" << models::to_string(l1d.set_index)
       << " write_policy=" << models::to_string(l1d.write_policy) << "\n";
}

void L1dTrace::attach(models::Cache& cache, unsigned sm) {
  cache.add_observer([this, sm](const models::CacheEvent& e) { record(sm, e); });
}

void L1dTrace::record(unsigned sm, const models::CacheEvent& e) {
  char event = 0;
  switch (e.kind) {
    case models::CacheEventKind::Hit: event = 'h'; break;
    case models::CacheEventKind::Miss: event = 'm'; break;
    case models::CacheEventKind::SectorMiss: event = 's'; break;
    case models::CacheEventKind::MshrMerge: event = 'g'; break;
    case models::CacheEventKind::Evict: event = 'e'; break;
    default: return;  // fills follow from the lookups
  }
  char op = 'L';
  if (e.access == models::AccessKind::Store) op = 'S';
  if (e.access == models::AccessKind::Atomic) op = 'A';
  if (e.kind == models::CacheEventKind::Evict) op = 'E';
  char line[96];
  const int n = std::snprintf(line, sizeof line, "%u %" PRIu64 " %d %c %c %" PRIx64 "\n", sm, e.cycle,
                              e.kind == models::CacheEventKind::Evict ? e.owner_warp : e.warp_id, op,
                              event, e.line_addr);
  out_.write(line, n);
}

void L1dTrace::finish() {
  out_.flush();
  if (!out_) throw Error(ErrorKind::Input, "writing the L1D trace " + path_ + " failed (sim.trace.l1d_file)");
}

}  // namespace simtlm::platforms
