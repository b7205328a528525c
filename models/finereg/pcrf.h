// FineReg's Pending-CTA Register File (Oh et al. §V-D/§V-E, Figure 11; seed
// note 004 §2.5-§2.6): entries of one warp-register (32 lanes x 4 B = 128 B)
// with a tag {valid, end, next, warp, reg}; the live registers of one pending
// CTA form a linked list that starts at the CTA's line of the pointer table
// (pointer to the first entry, number of entries) and follows `next` until
// `end`. The free-space monitor has one bit per entry; new entries are taken
// at its first 0 bit (a priority encoder), so a chain need not be contiguous.
//
// Only the RMU writes it, and only after checking that the whole list fits
// (invariant 6: store() of a list larger than the free space is a model
// error). check() verifies invariants 4 and 5 of the note's §7 (counts match
// the free monitor, every chain is well formed, no entry in two chains, each
// (warp, register) once per CTA and within the CTA's shape).
//
// The data of an entry (`lanes`) is kept only when the caller supplies it (the
// checking mode, live_check.h); the timing model moves tags only.
#pragma once

#include <cstdint>
#include <vector>

namespace simtlm::models::finereg {

inline constexpr uint32_t kPcrfEntryBytes = 128;  // one warp-register: 32 lanes x 4 B

// One warp-register of a CTA: warp index inside the CTA, physical register.
struct PcrfItem {
  uint32_t warp = 0;
  uint32_t reg = 0;
  std::vector<uint32_t> lanes;  // one 32-bit value per lane, or empty
};

class Pcrf {
 public:
  // `entries` warp-registers (PCRF bytes / 128); `cta_slots` lines of the
  // pointer table (resident CTA slots of the SM).
  Pcrf(uint32_t entries, uint32_t cta_slots);

  uint32_t capacity() const { return static_cast<uint32_t>(tags_.size()); }
  uint32_t used() const { return used_; }
  uint32_t free_entries() const { return capacity() - used_; }
  // True when CTA slot `cta` has a list here (possibly empty: no live register).
  bool holds(uint32_t cta) const { return lines_[cta].present; }
  uint32_t count(uint32_t cta) const { return lines_[cta].count; }

  // Moves `items` in as CTA `cta`'s list, in order. `warps` and `regs` bound
  // the warp and register numbers (the CTA's shape). Error(Internal) when the
  // list does not fit, the CTA already has a list, or an item is out of range
  // or repeated.
  void store(uint32_t cta, std::vector<PcrfItem> items, uint32_t warps, uint32_t regs);
  // Removes CTA `cta`'s list and returns it in list order (Error(Internal)
  // when it has none).
  std::vector<PcrfItem> restore(uint32_t cta);

  // Entry indices of CTA `cta`'s list in order (empty without one).
  std::vector<uint32_t> chain(uint32_t cta) const;

  // Invariants 4 and 5 (note §7); Error(Internal) naming the broken one.
  void check() const;

  // Hardware cost: tag bits per entry as the paper counts them (next pointer,
  // warp id, register index: 10 + 5 + 6 = 21 for 1024 entries) and the
  // pointer table (pointer + count per CTA slot).
  uint32_t tag_bits() const;
  uint64_t pointer_table_bits() const;

 private:
  struct Tag {
    bool valid = false;
    bool end = false;
    uint32_t next = 0;
    uint32_t warp = 0;
    uint32_t reg = 0;
  };
  struct Line {
    bool present = false;
    uint32_t ptr = 0;
    uint32_t count = 0;
    uint32_t warps = 0;  // shape bounds, for check()
    uint32_t regs = 0;
  };
  uint32_t take_free();

  std::vector<Tag> tags_;
  std::vector<std::vector<uint32_t>> data_;
  std::vector<uint64_t> free_map_;  // free-space monitor: 1 = occupied
  std::vector<Line> lines_;
  uint32_t used_ = 0;
};

}  // namespace simtlm::models::finereg
