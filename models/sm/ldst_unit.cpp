#include "models/sm/ldst_unit.h"

#include <algorithm>
#include <sstream>

#include "functional/launch.h"
#include "models/common/mem_extension.h"
#include "simtlm/error.h"

namespace simtlm::models {

using functional::ExecClass;

namespace {

// Generic-window base for shared/local lanes of generic accesses.
constexpr uint64_t kLocalSmStride = 1ull << 36;

FixedLatencyCacheParams const_params(const SmParams& p) {
  FixedLatencyCacheParams c;
  c.sets = p.const_sets;
  c.ways = p.const_ways;
  c.line_bytes = p.const_line_bytes;
  c.mshrs = 0;
  c.hit_latency = p.const_hit_latency;
  c.miss_latency = p.const_miss_latency;
  return c;
}

}  // namespace

LdstUnit::LdstUnit(const SmParams& p, uint32_t max_warps, SmStats& stats, AtInitiatorPort::Listener& listener,
                   const char* sm_name)
    : p_(p), stats_(stats), sm_name_(sm_name), max_warps_(max_warps),
      smem_banks_(p.smem_banks, p.smem_bank_width_bytes),
      coalescer_(p.coalesce_line_bytes, p.coalesce_sector_bytes),
      const_cache_(const_params(p)) {
  if (p_.l1d_enabled) {
    CacheParams c = p_.l1d;
    c.clock_period = p_.clock_period;
    c.level = 1;
    l1d_ = std::make_unique<Cache>("l1d", c);
    mux_ = std::make_unique<MemMux>("mem_mux", 2);
    l1d_port_ = std::make_unique<AtInitiatorPort>("l1d_port", listener, kL1dPort);
    l1d_port_->socket.bind(l1d_->target_socket);
    l1d_->initiator_socket.bind(mux_->target_socket(0));
  }
  bypass_port_ = std::make_unique<AtInitiatorPort>("mem_port", listener, kBypassPort);
  if (mux_) bypass_port_->socket.bind(mux_->target_socket(1));
  for (size_t i = 0; i < p_.memory_spaces.size(); ++i) {
    space_ports_.push_back(std::make_unique<AtInitiatorPort>(p_.memory_spaces[i] + "_port", listener,
                                                             kFirstSpacePort + static_cast<unsigned>(i)));
  }
  memops_.reserve(256);
  free_memops_.reserve(256);
  backlog_.reserve(256);
  responses_.reserve(256);
  const_words_.reserve(256);
}

LdstUnit::~LdstUnit() = default;

AtInitiatorPort::socket_type& LdstUnit::space_socket(const std::string& space) {
  for (size_t i = 0; i < p_.memory_spaces.size(); ++i) {
    if (p_.memory_spaces[i] == space) return space_ports_[i]->socket;
  }
  throw Error(ErrorKind::Internal, std::string(sm_name_) + ": no memory space '" + space + "' on this SM");
}

AtInitiatorPort& LdstUnit::port(unsigned index) const {
  if (index == kL1dPort && l1d_port_) return *l1d_port_;
  if (index >= kFirstSpacePort) return *space_ports_[index - kFirstSpacePort];
  return *bypass_port_;
}

uint32_t LdstUnit::new_memop() {
  uint32_t id;
  if (!free_memops_.empty()) {
    id = free_memops_.back();
    free_memops_.pop_back();
  } else {
    id = static_cast<uint32_t>(memops_.size());
    memops_.emplace_back();
  }
  memops_[id] = MemOp();
  memops_[id].in_use = true;
  return id;
}

uint64_t LdstUnit::local_address(uint32_t slot, unsigned lane, uint64_t offset) const {
  // Local memory is interleaved word by word across the SM's thread slots so
  // that the same local variable of consecutive lanes is contiguous (as the
  // hardware lays it out); each SM has its own region.
  const uint64_t threads = uint64_t(max_warps_) * p_.warp_size;
  const uint64_t thread = uint64_t(slot) * p_.warp_size + lane;
  return functional::kLocalWindowBase + uint64_t(p_.id) * kLocalSmStride +
         ((offset / 4) * threads + thread) * 4 + (offset % 4);
}

void LdstUnit::time_shared(const functional::ExecRecord& rec, uint64_t lanes, uint64_t base, uint64_t start,
                           uint64_t cta_id, bool merge, bool store, FixedPart& f) {
  uint32_t d = 0, added = 0;
  if (merge) {
    // Same-cycle slices' accesses are one access (SmParams::coalesce_same_cycle).
    d = same_cycle_smem_.degree(smem_banks_, rec.addresses, lanes, rec.access_bytes, base, cta_id, store, start, added);
    stats_.smem_passes += added;
    stats_.smem_bank_conflicts += added == d ? d - 1 : added;  // the cycle's first access brings its first pass
  } else {
    d = smem_banks_.degree(rec.addresses, lanes, rec.access_bytes, base);
    stats_.smem_passes += d;
    stats_.smem_bank_conflicts += d - 1;
  }
  f.passes = std::max(f.passes, d);
  f.any = true;
  f.done = std::max(f.done, start + p_.smem_latency + d - 1);
  ++stats_.smem_instructions;
}

void LdstUnit::time_const(const functional::ExecRecord& rec, uint64_t lanes, uint64_t start, FixedPart& f) {
  // The constant cache delivers one word per pass (broadcast to every lane
  // reading it); each distinct word is looked up in its pass.
  const_words_.clear();
  const uint32_t bytes = rec.access_bytes == 0 ? 4 : rec.access_bytes;
  for (uint64_t m = lanes; m; m &= m - 1) {
    const uint64_t a = rec.addresses[__builtin_ctzll(m)];
    for (uint64_t word = a / 4; word <= (a + bytes - 1) / 4; ++word) const_words_.push_back(word);
  }
  std::sort(const_words_.begin(), const_words_.end());
  const_words_.erase(std::unique(const_words_.begin(), const_words_.end()), const_words_.end());
  const uint32_t n = static_cast<uint32_t>(const_words_.size());
  for (uint32_t i = 0; i < n; ++i) f.done = std::max(f.done, const_cache_.access(const_words_[i] * 4, start + i));
  f.passes = std::max(f.passes, n);
  f.any = true;
  ++stats_.const_instructions;
  stats_.const_passes += n;
}

void LdstUnit::emit(const Txn& proto) {
  for (const LineRequest& lr : coalescer_.lines()) {
    Txn t = proto;
    t.addr = lr.line;
    t.sectors = lr.sectors;
    backlog_.push_back(t);
  }
}

void LdstUnit::emit_coalescing(const Txn& proto) {
  for (const LineRequest& lr : coalescer_.lines()) {
    bool merged = false;
    if (proto.kind != AccessKind::Atomic) {
      for (size_t i = backlog_.size(); i-- > backlog_head_;) {
        Txn& t = backlog_[i];
        if (t.addr == lr.line && t.ready == proto.ready && t.kind == proto.kind && t.port == proto.port &&
            t.space == proto.space && t.evict_first == proto.evict_first) {
          t.sectors |= lr.sectors;
          joined_.push_back(static_cast<uint32_t>(i));
          merged = true;
          break;
        }
      }
    }
    if (merged) continue;
    Txn t = proto;
    t.addr = lr.line;
    t.sectors = lr.sectors;
    backlog_.push_back(t);
  }
}

uint32_t LdstUnit::new_join(uint32_t leader_op) {
  uint32_t id;
  if (!free_joins_.empty()) {
    id = free_joins_.back();
    free_joins_.pop_back();
  } else {
    id = static_cast<uint32_t>(joins_.size());
    joins_.emplace_back();
  }
  joins_[id].assign(1, leader_op);
  return id;
}

LdstUnit::Issued LdstUnit::issue(uint32_t slot, uint64_t cta_id, const functional::ExecRecord& rec,
                                 const InstTiming& info, uint64_t exec, uint64_t& unit_free, WritebackQueue& wb) {
  const uint64_t start = exec + (p_.ldst.latency - 1);  // first cycle of the access
  const uint64_t exec_mask = rec.exec_mask;
  // An extension handler may leave the record's class as Extension: its
  // registered timing class (info.cls) then says what the access is.
  const ExecClass cls = rec.cls == ExecClass::Extension ? info.cls : rec.cls;
  const bool load = cls == ExecClass::Load;
  const bool store = cls == ExecClass::Store;
  const bool atomic = cls == ExecClass::Atomic || cls == ExecClass::Reduction;
  uint64_t shared = 0, local = 0, global = 0, cnst = 0, space = 0;
  bool param = false, call_param = false;
  uint64_t shared_base = 0, local_base = 0;
  switch (info.path) {
    case MemPath::Shared: shared = exec_mask; break;
    case MemPath::Const: cnst = exec_mask; break;
    case MemPath::Param: param = exec_mask != 0; break;
    case MemPath::CallParam: call_param = exec_mask != 0; break;
    case MemPath::Local: local = exec_mask; break;
    case MemPath::Space: space = exec_mask; break;
    case MemPath::Generic:
      shared = exec_mask & rec.shared_lanes;
      local = exec_mask & rec.local_lanes;
      global = exec_mask & ~(shared | local);
      shared_base = functional::kSharedWindowBase;
      local_base = functional::kLocalWindowBase;
      break;
    default: global = exec_mask; break;
  }

  FixedPart fixed;
  fixed.done = start + 1;
  if (exec_mask == 0) fixed.any = true;  // every lane guarded off: nothing to access
  if (shared != 0) time_shared(rec, shared, shared_base, start, cta_id, p_.coalesce_same_cycle && (load || store), store, fixed);
  if (cnst != 0) time_const(rec, cnst, start, fixed);
  if (param) {
    fixed.any = true;
    fixed.done = std::max(fixed.done, start + p_.param_latency);
    ++stats_.param_instructions;
  }
  if (call_param) {
    fixed.any = true;
    fixed.done = std::max(fixed.done, start + p_.sp.latency);
  }

  // Global, local and extra-space lanes: one transaction per line touched.
  const size_t first_txn = backlog_.size();
  joined_.clear();
  auto emit_lines = [&](const Txn& t) {
    if (p_.coalesce_same_cycle) {
      emit_coalescing(t);
    } else {
      emit(t);
    }
  };
  Txn proto;
  proto.slot = slot;
  proto.pc = rec.pc;
  proto.cta_id = cta_id;
  proto.ready = start;
  proto.kind = atomic ? AccessKind::Atomic : store ? AccessKind::Store : AccessKind::Load;
  const bool bypass = !l1d_ || atomic || (load && (!p_.l1d_cache_global || info.global_skips_l1d));
  const uint32_t bytes = rec.access_bytes == 0 ? 1 : rec.access_bytes;
  if (global != 0) {
    coalescer_.clear();
    for (uint64_t m = global; m; m &= m - 1) coalescer_.add(rec.addresses[__builtin_ctzll(m)], bytes);
    proto.space = StateSpace::Global;
    proto.port = bypass ? kBypassPort : kL1dPort;
    proto.evict_first = info.evict_first;
    emit_lines(proto);
    if (load) ++stats_.global_load_instructions;
    if (store) ++stats_.global_store_instructions;
    if (atomic) ++stats_.atomic_instructions;
  }
  if (local != 0) {
    coalescer_.clear();
    for (uint64_t m = local; m; m &= m - 1) {
      const unsigned lane = static_cast<unsigned>(__builtin_ctzll(m));
      const uint64_t off = rec.addresses[lane] - local_base;
      for (uint64_t b = 0; b < bytes; b += 4) {
        coalescer_.add(local_address(slot, lane, off + b), std::min<uint32_t>(4, static_cast<uint32_t>(bytes - b)));
      }
    }
    proto.space = StateSpace::Local;
    proto.port = (!l1d_ || atomic) ? kBypassPort : kL1dPort;
    proto.evict_first = false;
    emit_lines(proto);
    if (load) ++stats_.local_load_instructions;
    if (store) ++stats_.local_store_instructions;
  }
  if (space != 0) {
    coalescer_.clear();
    for (uint64_t m = space; m; m &= m - 1) coalescer_.add(rec.addresses[__builtin_ctzll(m)], bytes);
    proto.space = StateSpace::Extra;
    proto.port = static_cast<uint8_t>(kFirstSpacePort + info.space_index);
    proto.evict_first = false;
    emit_lines(proto);
  }
  // Transactions this operation waits for: its own, and those of other
  // operations it joined (coalesce_same_cycle).
  const uint32_t txns = static_cast<uint32_t>(backlog_.size() - first_txn + joined_.size());
  if (txns == 0 && !fixed.any) fixed.any = true;

  const uint32_t op = new_memop();
  MemOp& m = memops_[op];
  m.slot = slot;
  m.info = &info;
  m.transactions = txns;
  m.remaining = txns + (fixed.any ? 1 : 0);
  for (size_t i = first_txn; i < backlog_.size(); ++i) backlog_[i].op = op;
  for (uint32_t i : joined_) {
    Txn& t = backlog_[i];
    if (t.join == kNoJoin) t.join = new_join(t.op);
    joins_[t.join].push_back(op);
  }

  unit_free = exec + std::max(fixed.passes, p_.ldst.initiation_interval);
  if (fixed.any) wb.memory_piece(fixed.done, op, info);
  return {op, txns};
}

uint32_t LdstUnit::issue_mechanism(uint64_t addr, uint32_t bytes, bool write, bool via_l1d, uint64_t start) {
  if (bytes == 0) throw Error(ErrorKind::Internal, std::string(sm_name_) + ": a mechanism access of 0 bytes");
  coalescer_.clear();
  coalescer_.add(addr, bytes);
  Txn proto;
  proto.slot = kMechanismSlot;
  proto.ready = start;
  proto.kind = write ? AccessKind::Store : AccessKind::Load;
  proto.space = StateSpace::Global;
  proto.port = (via_l1d && !write && l1d_) ? kL1dPort : kBypassPort;
  const size_t first = backlog_.size();
  emit(proto);
  const uint32_t op = new_memop();
  MemOp& m = memops_[op];
  m.slot = kMechanismSlot;
  m.info = nullptr;
  m.transactions = static_cast<uint32_t>(backlog_.size() - first);
  m.remaining = m.transactions;
  for (size_t i = first; i < backlog_.size(); ++i) backlog_[i].op = op;
  return op;
}

void LdstUnit::send(uint64_t c, sc_core::sc_time now) {
  cycle_first_ = backlog_.size();  // called once per cycle, before the cycle's issue
  if (backlog_head_ >= backlog_.size()) return;
  const Txn& t = backlog_[backlog_head_];
  if (t.ready > c) return;
  AtInitiatorPort& out = port(t.port);
  if (!out.request_ready()) {
    if (blocked_since_ == kNeverCycle) blocked_since_ = c;
    return;
  }
  if (blocked_since_ != kNeverCycle) {
    stats_.ldst_blocked_cycles += c - blocked_since_;
    blocked_since_ = kNeverCycle;
  }
  tlm::tlm_generic_payload* tr = pool_.allocate();
  tr->acquire();
  tr->set_command(t.kind == AccessKind::Store ? tlm::TLM_WRITE_COMMAND : tlm::TLM_READ_COMMAND);
  tr->set_address(t.addr);
  tr->set_data_ptr(nullptr);
  tr->set_data_length(p_.coalesce_line_bytes);
  tr->set_streaming_width(p_.coalesce_line_bytes);
  tr->set_byte_enable_ptr(nullptr);
  tr->set_byte_enable_length(0);
  tr->set_response_status(tlm::TLM_INCOMPLETE_RESPONSE);
  MemExtension& ext = mem_ext(*tr, sm_name_);
  ext.reset();
  ext.sm_id = static_cast<int32_t>(p_.id);
  ext.warp_id = t.slot == kMechanismSlot ? -1 : static_cast<int32_t>(t.slot);
  ext.cta_id = static_cast<int32_t>(t.cta_id);
  ext.pc = t.pc;
  ext.space = t.space;
  ext.kind = t.kind;
  ext.sector_mask = t.sectors;
  ext.sector_bytes = static_cast<uint16_t>(p_.coalesce_sector_bytes);
  ext.request_id = t.join == kNoJoin ? t.op : (kJoinedRequest | t.join);
  ext.issue_time = now;
  ext.evict_first = t.evict_first;
  switch (t.kind) {
    case AccessKind::Store: ++stats_.store_transactions; break;
    case AccessKind::Atomic: ++stats_.atomic_transactions; break;
    default: ++stats_.load_transactions; break;
  }
  if (t.space == StateSpace::Local) ++stats_.local_transactions;
  stats_.transaction_sectors += popcount32(t.sectors);
  ++backlog_head_;
  if (backlog_head_ == backlog_.size()) {
    backlog_.clear();
    backlog_head_ = 0;
    cycle_first_ = 0;
  }
  out.send_request(*tr);
}

void LdstUnit::accept_response(tlm::tlm_generic_payload& trans, uint64_t ready, const Clock& clock) {
  const MemExtension& ext = mem_ext(trans, sm_name_);
  if (ext.request_id & kJoinedRequest) {
    // One response completes a piece of every operation that shared the line.
    const uint32_t j = static_cast<uint32_t>(ext.request_id & ~kJoinedRequest);
    for (uint32_t op : joins_[j]) responses_.push_back({op, ready});
    free_joins_.push_back(j);
  } else {
    responses_.push_back({static_cast<uint32_t>(ext.request_id), ready});
  }
  ++stats_.responses;
  if (ext.kind == AccessKind::Load && (ext.space == StateSpace::Global || ext.space == StateSpace::Local)) {
    const uint64_t sent = clock.cycle_of(ext.issue_time);
    const uint64_t latency = ready > sent ? ready - sent : 0;
    const unsigned level = ext.served_level < SmStats::kLatencyLevels ? ext.served_level : 0;
    stats_.load_latency_sum[level] += latency;
    ++stats_.load_latency_count[level];
    const unsigned bucket = latency == 0 ? 0 : 63 - static_cast<unsigned>(__builtin_clzll(latency));
    ++stats_.load_latency_histogram[level][std::min(bucket, SmStats::kLatencyBuckets - 1)];
  }
  trans.release();  // our reference from send(); the port keeps its own until END_RESP
}

uint64_t LdstUnit::next_wake(uint64_t c) const {
  uint64_t n = kNeverCycle;
  if (backlog_head_ < backlog_.size()) {
    const Txn& t = backlog_[backlog_head_];
    if (t.ready > c) {
      n = t.ready;
    } else if (port(t.port).request_ready()) {
      n = c + 1;
    }  // else: on_request_accepted() wakes the SM
  }
  if (responses_head_ < responses_.size()) n = std::min(n, responses_[responses_head_].ready);
  return n;
}

std::string LdstUnit::describe() const {
  if (backlog_head_ >= backlog_.size()) return "";
  // Where the unit is stuck: the head transaction and its port.
  const Txn& t = backlog_[backlog_head_];
  const bool via_l1d = t.port == kL1dPort && l1d_port_;
  std::ostringstream os;
  os << "LD/ST head: " << to_string(t.kind) << " of line 0x" << std::hex << t.addr << std::dec << " to the ";
  if (t.port >= kFirstSpacePort) {
    os << p_.memory_spaces[t.port - kFirstSpacePort] << " port, ";
  } else {
    os << (via_l1d ? "L1D" : "memory (L1D bypass)") << " port, ";
  }
  os << (port(t.port).request_ready() ? "port free" : "waiting for END_REQ (request held downstream)");
  return os.str();
}

}  // namespace simtlm::models
