#include "models/vws/ganging_unit.h"

#include <algorithm>

#include "models/sm/cta_table.h"
#include "models/sm/front_end.h"
#include "models/sm/inst_timing.h"
#include "models/sm/sm.h"
#include "models/sm/warp_table.h"
#include "simtlm/error.h"

namespace simtlm::models::vws {

GangingParams ganging_params(const VwsParams& v, const SmParams& sm) {
  GangingParams g;
  g.slices = v.slices;
  g.warp_slots = sm.resident_warps();
  g.fetch_ports = v.fetches_per_cycle == 0 ? v.slices : v.fetches_per_cycle;
  g.gangs_per_cycle = v.gangs_per_cycle;
  g.order = gang_order_from_name(v.gang_order);
  g.mem_split = v.mem_split;
  g.reform = v.reform;
  g.sync_wait = v.sync_wait;
  g.l0_entries = v.l0_bytes / sm.instruction_bytes;
  g.l0_hit_latency = sm.icache_hit_latency;
  return g;
}

GangingUnit::GangingUnit(const GangingParams& p, const WarpGroupParts& parts)
    : p_(p), parts_(parts), table_(p.warp_slots / p.slices, p.slices), issue_(p.order, p.gangs_per_cycle),
      arbiter_(p.fetch_ports, p.slices), sync_(p.warp_slots, p.sync_wait),
      l0_(p.l0_entries == 0 ? 0 : p.slices, L0ICache(p.l0_entries)), pending_loads_(p.warp_slots, 0), ready_now_(p.warp_slots / p.slices, 0),
      slice_rr_(p.slices, 0) {
  if (p.warp_slots % p.slices != 0) {
    throw Error(ErrorKind::Internal, "ganging unit: warp slots not a multiple of the slices");
  }
  n_.slice_fetches.assign(p.slices, 0);
  n_.gangs_issued.assign(p.gangs_per_cycle + 1, 0);
  n_.gang_lanes.assign(64 + 1, 0);
}

GangingUnit& GangingUnit::install(Sm& sm, const GangingParams& p) {
  GangingUnit* made = nullptr;
  sm.set_warp_group_unit([&](Sm& s, const WarpGroupParts& parts) -> std::unique_ptr<WarpGroupUnit> {
    auto unit = std::make_unique<GangingUnit>(p, parts);
    s.add_issue_gate(*unit);
    s.subscribe(*unit);
    made = unit.get();
    return unit;
  });
  return *made;
}

// ---------------------------------------------------------------- events

void GangingUnit::on_cta_activate(const CtaEvent& e) {
  // The CTA's warps sit in whole slot groups (SmParams::warp_slot_group =
  // slices): each group is an original gang, formed like a 32-wide warp.
  const CtaState& cs = parts_.ctas[e.cta_slot];
  std::vector<SliceMask> present(table_.sets(), 0);
  std::vector<uint32_t> sets;
  for (uint32_t ws : cs.warp_slots) {
    const uint32_t set = ws / p_.slices;
    if (present[set] == 0) sets.push_back(set);
    present[set] |= SliceMask(1) << (ws % p_.slices);
  }
  for (uint32_t set : sets) {
    const uint32_t pc = parts_.warps[set * p_.slices + static_cast<uint32_t>(__builtin_ctz(present[set]))].pc;
    if (table_.form(set, present[set], pc) != kNoGang) ++n_.gangs_formed;
  }
}

void GangingUnit::on_warp_finish(const WarpEvent& e) {
  table_.retire(e.warp_slot / p_.slices, e.warp_slot % p_.slices);
  pending_loads_[e.warp_slot] = 0;
  sync_.issued(e.warp_slot);
}

void GangingUnit::on_warp_issue(const IssueRecord& r) {
  if (p_.sync_wait != 0) sync_.issued(r.warp_slot);
}

void GangingUnit::on_writeback(const RegisterAccess& a) {
  if (p_.mem_split == MemSplit::None || !a.inst->is_memory()) return;
  uint32_t& pending = pending_loads_[a.warp_slot];
  if (pending == 0 || --pending != 0) return;
  const uint32_t set = a.warp_slot / p_.slices;
  if (ready_now_[set] == 0) touched_sets_.push_back(set);
  ready_now_[set] |= SliceMask(1) << (a.warp_slot % p_.slices);
}

bool GangingUnit::allows(const GateQuery& q, sched::StallKind& stall) {
  const uint32_t set = q.warp_slot / p_.slices;
  if (!gang_phase_ && table_.gang_of(set, q.warp_slot % p_.slices) != kNoGang) {
    stall = sched::StallKind::Throttled;  // its slice waits for the gang
    return false;
  }
  if (p_.sync_wait == 0 || q.inst == nullptr) return true;
  if (!sync_.holds(q.warp_slot, q.kernel, q.pc, table_.units(set) >= 2, q.cycle)) return true;
  stall = sched::StallKind::Throttled;  // waits at a sync point for its original gang
  return false;
}

// ---------------------------------------------------------------- issue

void GangingUnit::members(uint32_t gang, std::vector<uint32_t>& out) const {
  out.clear();
  const uint32_t set = table_.set_of(gang);
  for (SliceMask m = table_.gang(gang).mask; m; m &= m - 1) {
    out.push_back(slot(set, static_cast<uint32_t>(__builtin_ctz(m))));
  }
}

bool GangingUnit::all_ready(const std::vector<uint32_t>& m, uint64_t c, GroupIssueAccess& stage) const {
  bool all = true;
  for (uint32_t ws : m) {
    if (stage.ready(ws, c)) continue;
    // With sync waits every member is asked, so that each member's wait
    // starts in the cycle it is ready (not when the member before it is).
    if (p_.sync_wait == 0) return false;
    all = false;
  }
  return all;
}

// Members of a gang whose loads came back in this cycle while other members'
// are still outstanding diverged on memory latency (§6.2.4).
void GangingUnit::memory_splits() {
  const bool impatient = p_.mem_split == MemSplit::Impatient;
  for (uint32_t set : touched_sets_) {
    const SliceMask now = ready_now_[set];
    ready_now_[set] = 0;
    for (uint32_t w = 0; w < table_.ways(); ++w) {
      const uint32_t g = table_.gang_id(set, w);
      const GangEntry& e = table_.gang(g);
      if (!e.valid_entry || (e.mask & now) == 0) continue;
      bool others_waiting = false;
      for (SliceMask m = e.mask & ~now; m; m &= m - 1) {
        others_waiting |= pending_loads_[slot(set, static_cast<uint32_t>(__builtin_ctz(m)))] != 0;
      }
      // Only the parts split off here are new: they never match `now` again.
      if (others_waiting) table_.split_by_ready(g, now, impatient);
    }
  }
  touched_sets_.clear();
}

// E-VWS: one original gang per cycle; merged warps' I-buffers are flushed so
// that the gang refetches once for all.
void GangingUnit::reform_step() {
  WarpTable& warps = parts_.warps;
  const uint32_t g = table_.reform_one(
      [&](uint32_t set, uint32_t slice) { return warps[slot(set, slice)].pc; },
      [&](uint32_t set, uint32_t slice) {
        const WarpState& w = warps[slot(set, slice)];
        return w.live && !w.fetch_inflight;
      });
  if (g == kNoGang) return;
  members(g, scratch_);
  for (uint32_t ws : scratch_) {
    parts_.front.flush(warps[ws]);
    parts_.front.want_fetch(ws);
  }
}

uint64_t GangingUnit::issue_groups(uint64_t c, GroupIssueAccess& stage) {
  if (!touched_sets_.empty()) memory_splits();
  if (p_.reform != Reform::None) reform_step();  // E-VWS and E-VWS-Sync
  if (table_.gangs_in_use() == 0) return 0;
  gang_phase_ = true;
  std::vector<GangCandidate> cand;
  for (uint32_t g = 0; g < table_.sets() * table_.ways(); ++g) {
    const GangEntry& e = table_.gang(g);
    if (!e.valid_entry) continue;
    members(g, scratch_);
    if (!all_ready(scratch_, c, stage)) continue;
    GangCandidate k;
    k.gang = g;
    k.mask = e.mask;
    k.pc = parts_.warps[scratch_.front()].pc;
    k.age = parts_.warps[scratch_.front()].age;
    cand.push_back(k);
  }
  uint64_t closed = 0;
  uint32_t issued = 0;
  if (!cand.empty()) {
    SliceMask used = 0;
    const std::vector<uint32_t> chosen = issue_.select(std::move(cand), used);
    for (size_t i = 0; i < chosen.size(); ++i) {
      members(chosen[i], scratch_);
      // The first gang was checked just now; a later one again, after the
      // earlier gangs took their collector units and pipelines.
      if (i > 0 && !all_ready(scratch_, c, stage)) continue;
      if (!issue_gang(chosen[i], c, stage, closed)) {
        gang_phase_ = false;
        return 0;  // device fault
      }
      ++issued;
    }
  }
  gang_phase_ = false;
  if (issued > 0) ++n_.gangs_issued[issued];
  return closed;
}

bool GangingUnit::issue_gang(uint32_t gang, uint64_t c, GroupIssueAccess& stage, uint64_t& closed) {
  WarpTable& warps = parts_.warps;
  const std::vector<uint32_t> m = scratch_;  // the table changes when a member finishes
  uint64_t lanes = 0;
  for (uint32_t ws : m) {
    WarpState& w = warps[ws];
    const InstTiming& info = w.timing->at(w.ib_pc);
    const bool load = p_.mem_split != MemSplit::None && info.is_memory() && info.num_dst != 0;
    const uint64_t before = w.warp->thread_instructions();
    const functional::Warp* fw = w.warp;
    if (!stage.issue(ws, c)) return false;
    lanes += fw->thread_instructions() - before;
    closed |= uint64_t(1) << w.scheduler;
    if (load && !w.finished) ++pending_loads_[ws];
  }
  ++n_.gang_issues;
  n_.gang_warp_instructions += m.size();
  n_.gang_thread_instructions += lanes;
  ++n_.gang_lanes[std::min<uint64_t>(lanes, n_.gang_lanes.size() - 1)];
  // Control-flow divergence: the members' new pcs (finished members have
  // left the gang already).
  const GangEntry& e = table_.gang(gang);
  if (!e.valid_entry) return true;
  const uint32_t set = table_.set_of(gang);
  table_.split_by_pc(gang, [&](uint32_t slice) { return warps[slot(set, slice)].pc; });
  return true;
}

// ---------------------------------------------------------------- fetch

// Gangs (round-robin from fetch_rr_) of which a member asks for a fetch and
// none has one in flight (a fetch in flight, e.g. from before a reformation,
// is waited for: the gang then fetches once for all).
uint32_t GangingUnit::gang_fetch_requests(std::vector<uint32_t>& gangs) {
  gangs.clear();
  const uint32_t entries = table_.sets() * table_.ways();
  const WarpTable& warps = parts_.warps;
  for (uint32_t i = 0; i < entries && gangs.size() < p_.fetch_ports; ++i) {
    const uint32_t g = (fetch_rr_ + i) % entries;
    const GangEntry& e = table_.gang(g);
    if (!e.valid_entry) continue;
    const uint32_t set = table_.set_of(g);
    bool asks = false, inflight = false;
    for (SliceMask m = e.mask; m; m &= m - 1) {
      const uint32_t ws = slot(set, static_cast<uint32_t>(__builtin_ctz(m)));
      asks |= parts_.front.wants_fetch(ws);
      inflight |= warps[ws].fetch_inflight;
    }
    if (asks && !inflight) gangs.push_back(g);
  }
  return static_cast<uint32_t>(gangs.size());
}

// Per slice, the next independent warp (round-robin over the original
// gangs) that asks for a fetch; one that hits the slice's L0 is served at
// once and the slice asks for no L1 port.
SliceMask GangingUnit::slice_fetch_requests(uint64_t c, std::vector<uint32_t>& warp_of_slice) {
  SliceMask asking = 0;
  const uint32_t sets = table_.sets();
  warp_of_slice.assign(p_.slices, 0);
  for (uint32_t s = 0; s < p_.slices; ++s) {
    for (uint32_t i = 0; i < sets; ++i) {
      const uint32_t set = (slice_rr_[s] + i) % sets;
      if (!((table_.independent(set) >> s) & 1u)) continue;
      const uint32_t ws = slot(set, s);
      if (!parts_.front.wants_fetch(ws) || !parts_.warps[ws].live) continue;
      if (!l0_.empty() && fetch_from_l0(c, s, ws)) break;
      asking |= SliceMask(1) << s;
      warp_of_slice[s] = ws;
      break;
    }
  }
  return asking;
}

bool GangingUnit::fetch_from_l0(uint64_t c, uint32_t s, uint32_t ws) {
  const WarpState& w = parts_.warps[ws];
  const uint32_t n = parts_.front.fetch_span(w);
  uint64_t ready = 0;
  if (!l0_[s].probe(w.pc, n, ready)) return false;
  parts_.front.fetch_served(ws, std::max(ready, c + p_.l0_hit_latency), n);
  ++n_.slice_fetches[s];
  ++n_.l0_hits;
  slice_rr_[s] = (ws / p_.slices + 1) % table_.sets();
  return true;
}

void GangingUnit::fetch(uint64_t c, uint64_t& structural_wake) {
  if (!parts_.front.any_wants_fetch()) return;
  std::vector<uint32_t> gangs, warp_of_slice;
  const uint32_t gang_requests = gang_fetch_requests(gangs);
  const SliceMask slice_requests = slice_fetch_requests(c, warp_of_slice);
  if (gang_requests == 0 && slice_requests == 0) return;
  const FetchArbiter::Grant grant = arbiter_.arbitrate(gang_requests, slice_requests);
  const uint32_t entries = table_.sets() * table_.ways();
  for (uint32_t i = 0; i < grant.gang_fetches; ++i) {
    members(gangs[i], scratch_);
    if (!parts_.front.fetch_group(c, scratch_.data(), static_cast<uint32_t>(scratch_.size()), structural_wake)) return;
    ++n_.gang_fetches;
    fetch_rr_ = (gangs[i] + 1) % entries;
  }
  for (SliceMask m = grant.slices; m; m &= m - 1) {
    const uint32_t s = static_cast<uint32_t>(__builtin_ctz(m));
    const uint32_t ws = warp_of_slice[s];
    if (!parts_.front.fetch_group(c, &ws, 1, structural_wake)) return;
    ++n_.slice_fetches[s];
    if (!l0_.empty()) {
      const WarpState& w = parts_.warps[ws];
      l0_[s].fill(w.fetch_pc, w.fetch_count, w.fetch_ready);
      ++n_.l0_misses;
    }
    slice_rr_[s] = (ws / p_.slices + 1) % table_.sets();
  }
}

// ---------------------------------------------------------------- statistics

void GangingUnit::register_stats(const stats::Group& sm) {
  const stats::Group g = sm.child("vws");
  g.counter("gangs_formed", &n_.gangs_formed, "gangs", "original gangs formed at CTA activation");
  g.counter("gang_fetches", &n_.gang_fetches, "fetches", "gang fetches (each decoded once for every member)");
  g.vector("slice_fetches", &n_.slice_fetches, "fetches", "fetches of independent warps, per slice");
  g.counter("gang_issues", &n_.gang_issues, "instructions", "gang instructions issued (all members in one cycle)");
  g.counter("gang_warp_instructions", &n_.gang_warp_instructions, "instructions",
            "member warp instructions issued as part of a gang");
  g.counter("gang_thread_instructions", &n_.gang_thread_instructions, "instructions",
            "thread instructions of gang instructions");
  g.vector("gangs_issued", &n_.gangs_issued, "cycles", "cycles by gangs issued (element k: k gangs, k >= 1)");
  g.vector("gang_lanes", &n_.gang_lanes, "instructions", "gang instructions by active lanes");
  g.counter("splits_control_flow", table_.split_counter(SplitCause::ControlFlow), "splits",
            "gangs split on control-flow divergence");
  g.counter("splits_memory_impatient", table_.split_counter(SplitCause::MemoryImpatient), "splits",
            "gangs split completely on memory-latency divergence (impatient)");
  g.counter("splits_memory_group", table_.split_counter(SplitCause::MemoryGroup), "splits",
            "gangs split by ready group on memory-latency divergence");
  g.counter("reformations", table_.reformation_counter(), "merges", "gangs or warps merged by reformation");
  if (p_.l0_entries != 0) {
    g.counter("l0_hits", &n_.l0_hits, "fetches", "independent warps' fetches served by their slice's L0 I-cache");
    g.counter("l0_misses", &n_.l0_misses, "fetches",
              "independent warps' fetches that missed the L0 and went to the L1 I-cache");
    g.formula("l0_hit_rate", "@l0_hits / (@l0_hits + @l0_misses)", "ratio", "L0 I-cache hit rate of independent warps' fetches");
  }
  if (p_.sync_wait != 0) {
    g.counter("sync_waits", &sync_.waits, "waits", "waits begun by warps of split original gangs at sync points");
    g.counter("sync_timeouts", &sync_.timeouts, "waits", "sync waits that ended after gpu.vws.reform's N cycles, the gang still split");
    g.counter("sync_reformed", &sync_.reformed, "waits", "sync waits that ended with the original gang one gang again");
    g.counter("sync_held", &sync_.held, "warp-cycles", "issue checks of waiting warps answered 'wait'");
  }
  const std::string wi = sm.path("warp_instructions"), ti = sm.path("thread_instructions");
  const std::string cycles = sm.path("active_cycles"), fetches = sm.path("fetches");
  g.formula("issues", wi + " - @gang_warp_instructions + @gang_issues", "instructions",
            "instructions issued: gang instructions plus independent warps' instructions");
  g.formula("lanes_per_issue", ti + " / (" + wi + " - @gang_warp_instructions + @gang_issues)", "lanes",
            "active lanes per issued instruction (a gang instruction counts once)");
  g.formula("fetches_per_cycle", fetches + " / " + cycles, "fetches/cycle",
            "fetch/decodes per active cycle (a gang fetch counts once)");
  g.formula("gang_fetches_per_cycle", "@gang_fetches / " + cycles, "fetches/cycle", "gang fetches per active cycle");
  g.formula("gangs_per_cycle", "@gang_issues / " + cycles, "gangs/cycle", "gangs issued per active cycle");
}

}  // namespace simtlm::models::vws
