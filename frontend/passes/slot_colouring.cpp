// Memory-slot assignment (see slot_colouring.h).
#include "frontend/passes/slot_colouring.h"

#include <algorithm>
#include <map>

namespace simtlm::frontend::passes {

SlotGraph SlotGraph::from_live_sets(uint32_t n, const std::vector<std::vector<uint32_t>>& live_sets) {
  SlotGraph g;
  g.adj.resize(n);
  for (const auto& set : live_sets)
    for (size_t i = 0; i < set.size(); ++i)
      for (size_t j = i + 1; j < set.size(); ++j) {
        if (set[i] == set[j]) continue;
        g.adj[set[i]].push_back(set[j]);
        g.adj[set[j]].push_back(set[i]);
      }
  for (auto& a : g.adj) {
    std::sort(a.begin(), a.end());
    a.erase(std::unique(a.begin(), a.end()), a.end());
  }
  return g;
}

namespace {
uint32_t width_of(const std::vector<uint8_t>& widths, uint32_t v) { return v < widths.size() ? widths[v] : 1; }
}  // namespace

uint32_t max_live(const std::vector<std::vector<uint32_t>>& live_sets, const std::vector<char>& member,
                  const std::vector<uint8_t>& widths) {
  uint32_t best = 0;
  for (const auto& set : live_sets) {
    uint32_t n = 0;
    for (uint32_t v : set) n += v < member.size() && member[v] ? width_of(widths, v) : 0;
    best = std::max(best, n);
  }
  return best;
}

const char* prune_priority_name(PrunePriority p) {
  return p == PrunePriority::Accesses ? "accesses" : "live_sets";
}

bool parse_prune_priority(const std::string& text, PrunePriority& out) {
  if (text == "live_sets") out = PrunePriority::LiveSets;
  else if (text == "accesses") out = PrunePriority::Accesses;
  else return false;
  return true;
}

PruneResult prune_to_slots(const std::vector<std::vector<uint32_t>>& live_sets, const std::vector<uint32_t>& candidates,
                           uint32_t slots, PrunePriority priority, const std::vector<double>& accesses,
                           const std::vector<uint8_t>& widths) {
  uint32_t n = 0;
  for (uint32_t v : candidates) n = std::max(n, v + 1);
  for (const auto& set : live_sets)
    for (uint32_t v : set) n = std::max(n, v + 1);
  std::vector<char> member(n, 0);
  for (uint32_t v : candidates) member[v] = 1;
  PruneResult r;
  r.max_live_before = max_live(live_sets, member, widths);
  // Steps 1-2: the over-limit live sets and each variable's occurrences in them.
  std::vector<uint32_t> occurrences(n, 0);
  for (const auto& set : live_sets) {
    uint32_t size = 0;
    for (uint32_t v : set) size += member[v] ? width_of(widths, v) : 0;
    if (size <= slots) continue;
    for (uint32_t v : set)
      if (member[v]) ++occurrences[v];
  }
  // A variable's accesses per slot it takes, and the slots it frees from
  // over-limit live sets: with widths 1 these are the accesses and the
  // occurrences; a 64-bit value's two slots count as two.
  auto weight = [&](uint32_t v) { return (v < accesses.size() ? accesses[v] : 0.0) / width_of(widths, v); };
  auto relief = [&](uint32_t v) { return occurrences[v] * width_of(widths, v); };
  // Does v leave before `pick`? Only variables of an over-limit live set
  // are eliminated (a set still above the limit was above it at the start).
  auto before = [&](uint32_t v, uint32_t pick) {
    if (pick == n) return true;
    if (priority == PrunePriority::Accesses && weight(v) != weight(pick)) return weight(v) < weight(pick);
    return relief(v) > relief(pick);
  };
  // Step 3: eliminate the first by priority until the largest live set fits.
  while (max_live(live_sets, member, widths) > slots) {
    uint32_t pick = n;
    for (uint32_t v : candidates) {
      if (!member[v] || occurrences[v] == 0) continue;
      if (before(v, pick)) pick = v;
    }
    if (pick == n) break;  // cannot happen: an over-limit set has members with occurrences
    member[pick] = 0;
    r.pruned.push_back(pick);
  }
  for (uint32_t v : candidates)
    if (member[v]) r.kept.push_back(v);
  r.max_live_after = max_live(live_sets, member, widths);
  return r;
}

namespace {

std::vector<uint32_t> visiting_order(const SlotGraph& g, const std::vector<uint32_t>& nodes, SlotOrder order) {
  const size_t n = g.adj.size();
  std::vector<char> in(n, 0);
  for (uint32_t v : nodes) in[v] = 1;
  std::vector<uint32_t> degree(n, 0);
  for (uint32_t v : nodes)
    for (uint32_t u : g.adj[v]) degree[v] += in[u];
  std::vector<uint32_t> out;
  if (order == SlotOrder::Degree) {
    out = nodes;
    std::stable_sort(out.begin(), out.end(), [&](uint32_t a, uint32_t b) {
      return degree[a] != degree[b] ? degree[a] > degree[b] : a < b;
    });
    return out;
  }
  // Maximum cardinality search: O(n^2), fine for the few spilled values.
  std::vector<uint32_t> weight(n, 0);
  std::vector<char> done(n, 0);
  for (size_t k = 0; k < nodes.size(); ++k) {
    uint32_t pick = static_cast<uint32_t>(n);
    for (uint32_t v : nodes) {
      if (done[v]) continue;
      if (pick == n || weight[v] > weight[pick] || (weight[v] == weight[pick] && degree[v] > degree[pick]) ||
          (weight[v] == weight[pick] && degree[v] == degree[pick] && v < pick))
        pick = v;
    }
    done[pick] = 1;
    out.push_back(pick);
    for (uint32_t u : g.adj[pick])
      if (in[u] && !done[u]) ++weight[u];
  }
  return out;
}

}  // namespace

SlotColouring colour_slots(const SlotGraph& g, const std::vector<uint32_t>& nodes, uint32_t budget, SlotOrder order,
                           const std::vector<uint8_t>& widths) {
  SlotColouring c;
  c.slot.assign(g.adj.size(), kLocalSlot);
  c.slot2.assign(g.adj.size(), kLocalSlot);
  uint32_t opened = 0;  // slots 0..opened-1 were given to some variable so far
  std::vector<char> busy;
  for (uint32_t v : visiting_order(g, nodes, order)) {
    const uint32_t need = width_of(widths, v);
    busy.assign(opened, 0);
    for (uint32_t u : g.adj[v])
      for (int32_t s : {c.slot[u], c.slot2[u]})
        if (s != kLocalSlot && static_cast<uint32_t>(s) < opened) busy[s] = 1;
    std::vector<int32_t> chosen;
    for (uint32_t s = 0; s < opened && chosen.size() < need; ++s)  // reuse first, lowest index
      if (!busy[s]) chosen.push_back(static_cast<int32_t>(s));
    const uint32_t more = need - static_cast<uint32_t>(chosen.size());
    if (budget != 0xFFFFFFFFu && opened + more > budget) {  // all or nothing
      ++c.demoted;
      continue;
    }
    for (uint32_t k = 0; k < more; ++k) chosen.push_back(static_cast<int32_t>(opened++));
    c.slot[v] = chosen[0];
    if (need > 1) c.slot2[v] = chosen[1];
  }
  c.slots_used = opened;
  return c;
}

UnifiedPlacement place_unified(const std::vector<std::vector<uint32_t>>& live_sets, uint32_t n, uint32_t registers,
                               uint32_t smem_slots, SlotOrder order) {
  const SlotGraph g = SlotGraph::from_live_sets(n, live_sets);
  UnifiedPlacement p;
  p.where.assign(n, Location::Local);
  p.index.assign(n, -1);
  std::vector<uint32_t> all(n);
  for (uint32_t v = 0; v < n; ++v) all[v] = v;
  const SlotColouring regs = colour_slots(g, all, registers, order);
  std::vector<uint32_t> rest;
  for (uint32_t v = 0; v < n; ++v) {
    if (regs.slot[v] != kLocalSlot) {
      p.where[v] = Location::Register;
      p.index[v] = regs.slot[v];
    } else {
      rest.push_back(v);
    }
  }
  const PruneResult pruned = prune_to_slots(live_sets, rest, smem_slots);
  const SlotColouring smem = colour_slots(g, pruned.kept, pruned.max_live_after, order);
  for (uint32_t v : pruned.kept) {
    if (smem.slot[v] == kLocalSlot) continue;
    p.where[v] = Location::SharedSlot;
    p.index[v] = smem.slot[v];
  }
  for (uint32_t v = 0; v < n; ++v) p.locals += p.where[v] == Location::Local ? 1 : 0;
  return p;
}

}  // namespace simtlm::frontend::passes
