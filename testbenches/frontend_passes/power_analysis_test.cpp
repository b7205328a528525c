// GREENER's power-state analysis on the thesis's own example: Fig. 4.3 (the
// scalarProd snippet in PTXPlus, W = 7), every annotation as the seed note
// (000 §2.12) lists it, built as the same CFG and operand lists; and the
// analysis's invariants (saturation, fixed point, Table 4.1) on small graphs.
#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "frontend/passes/power_analysis.h"

namespace simtlm::frontend::passes {
namespace {

// One line of the snippet: written and read registers (address registers and
// the guard among the reads), the registers the encoding annotates in the
// seed's order (destination, source 1, source 2), and the expected states.
struct Line {
  std::vector<std::string> defs, uses, encoded;
  std::vector<uint32_t> succs;  // 1-based line numbers; empty: falls through to the next line
  bool leaves = false;
  std::vector<std::string> expected;
};

class Snippet {
 public:
  explicit Snippet(std::vector<Line> lines) : lines_(std::move(lines)) {}

  PowerProblem problem(uint32_t window) {
    PowerProblem p;
    p.window = window;
    for (size_t i = 0; i < lines_.size(); ++i) {
      const Line& l = lines_[i];
      PowerInst s;
      for (const std::string& r : l.defs) s.defs.push_back(id(r));
      for (const std::string& r : l.uses) s.uses.push_back(id(r));
      if (l.succs.empty()) {
        s.succs.push_back(static_cast<uint32_t>(i + 1));
      } else {
        for (uint32_t line : l.succs) s.succs.push_back(line - 1);
      }
      s.leaves = l.leaves;
      p.insts.push_back(s);
    }
    p.num_regs = static_cast<uint32_t>(ids_.size());
    return p;
  }
  uint32_t id(const std::string& name) {
    auto it = ids_.find(name);
    if (it != ids_.end()) return it->second;
    const uint32_t n = static_cast<uint32_t>(ids_.size());
    ids_[name] = n;
    return n;
  }
  const std::vector<Line>& lines() const { return lines_; }

 private:
  std::vector<Line> lines_;
  std::map<std::string, uint32_t> ids_;
};

// Fig. 4.3. Blocks: B4 = 1-4 (4 branches to B8), B5 = 5-8, B6 = 9-16 (16
// loops to B6), B7 = 17 (bra B9), B8 = 18, B9 = 19-24 (24 loops to B4, else
// leaves the snippet). $r124 is never written (PTXPlus's zero register).
std::vector<Line> figure_4_3() {
  return {
      /* 1 set.le.s32.s32 $p2/$o127, $r8, $r0        */ {{"$p2", "$o127"}, {"$r8", "$r0"}, {"$p2", "$r8", "$r0"}, {}, false, {"ON", "SLEEP", "ON"}},
      /* 2 ssy 0x00000110                           */ {{}, {}, {}, {}, false, {}},
      /* 3 mov.u32 $r1, $r0                         */ {{"$r1"}, {"$r0"}, {"$r1", "$r0"}, {}, false, {"SLEEP", "ON"}},
      /* 4 $p2.ne bra B8                            */ {{}, {"$p2"}, {}, {5, 18}, false, {}},
      /* 5 shl.u32 $r10, $r0, 0x00000002            */ {{"$r10"}, {"$r0"}, {"$r10", "$r0"}, {}, false, {"ON", "SLEEP"}},
      /* 6 mov.u32 $r12, $r124                      */ {{"$r12"}, {"$r124"}, {"$r12", "$r124"}, {}, false, {"ON", "SLEEP"}},
      /* 7 add.half.u32 $r11, s[0x0018], $r10       */ {{"$r11"}, {"$r10"}, {"$r11", "$r10"}, {}, false, {"ON", "ON"}},
      /* 8 add.half.u32 $r10, s[0x0020], $r10       */ {{"$r10"}, {"$r10"}, {"$r10", "$r10"}, {}, false, {"ON", "ON"}},
      /* 9 ld.global.u32 $r14, [$r11]               */ {{"$r14"}, {"$r11"}, {"$r14"}, {}, false, {"ON"}},
      /*10 ld.global.u32 $r13, [$r10]               */ {{"$r13"}, {"$r10"}, {"$r13"}, {}, false, {"ON"}},
      /*11 mad.f32 $r12, $r14, $r13, $r12           */ {{"$r12"}, {"$r14", "$r13", "$r12"}, {"$r12", "$r14", "$r13"}, {}, false, {"SLEEP", "OFF", "OFF"}},
      /*12 add.u32 $r1, $r1, 0x00000400             */ {{"$r1"}, {"$r1"}, {"$r1", "$r1"}, {}, false, {"ON", "ON"}},
      /*13 set.gt.s32.s32 $p2/$o127, $r8, $r1       */ {{"$p2", "$o127"}, {"$r8", "$r1"}, {"$p2", "$r8", "$r1"}, {}, false, {"ON", "SLEEP", "SLEEP"}},
      /*14 add.u32 $r10, $r10, 0x00001000           */ {{"$r10"}, {"$r10"}, {"$r10", "$r10"}, {}, false, {"SLEEP", "SLEEP"}},
      /*15 add.u32 $r11, $r11, 0x00001000           */ {{"$r11"}, {"$r11"}, {"$r11", "$r11"}, {}, false, {"SLEEP", "SLEEP"}},
      /*16 $p2.ne bra B6                            */ {{}, {"$p2"}, {}, {9, 17}, false, {}},
      /*17 bra B9                                   */ {{}, {}, {}, {19}, false, {}},
      /*18 mov.u32 $r12, $r124                      */ {{"$r12"}, {"$r124"}, {"$r12", "$r124"}, {19}, false, {"ON", "SLEEP"}},
      /*19 add.u32 $r0, $r0, $r5                    */ {{"$r0"}, {"$r0", "$r5"}, {"$r0", "$r0", "$r5"}, {}, false, {"ON", "ON", "SLEEP"}},
      /*20 shl.b32 $ofs1, $r9, 0x0                  */ {{"$ofs1"}, {"$r9"}, {"$ofs1", "$r9"}, {}, false, {"ON", "ON"}},
      /*21 set.le.s32.s32 $p2/$o127, $r0, $r6       */ {{"$p2", "$o127"}, {"$r0", "$r6"}, {"$p2", "$r0", "$r6"}, {}, false, {"ON", "SLEEP", "SLEEP"}},
      /*22 mov.u32 s[$ofs1+0x0000], $r12            */ {{}, {"$ofs1", "$r12"}, {"$r12"}, {}, false, {"OFF"}},
      /*23 add.u32 $r9, $r9, $r7                    */ {{"$r9"}, {"$r9", "$r7"}, {"$r9", "$r9", "$r7"}, {}, false, {"SLEEP", "SLEEP", "SLEEP"}},
      /*24 $p2.ne bra B4                            */ {{}, {"$p2"}, {}, {1}, true, {}},
  };
}

std::vector<std::string> annotations(Snippet& s, const PowerAnalysis& a, size_t line) {
  std::vector<std::string> out;
  for (const std::string& r : s.lines()[line].encoded) out.push_back(to_string(a.power_out(static_cast<uint32_t>(line), s.id(r))));
  return out;
}

TEST(PowerAnalysis, Figure43EveryAnnotationAtW7) {
  Snippet s(figure_4_3());
  const PowerAnalysis a(s.problem(7));
  for (size_t line = 0; line < s.lines().size(); ++line) {
    EXPECT_EQ(annotations(s, a, line), s.lines()[line].expected) << "line " << line + 1;
  }
}

TEST(PowerAnalysis, Figure43WorkedCases) {
  Snippet s(figure_4_3());
  const PowerAnalysis a(s.problem(7));
  const uint32_t inf = a.infinity();
  // Line 11: $r14 and $r13 are next redefined (next iteration) or never used
  // again: MAX gives INF and they are dead -> OFF.
  EXPECT_EQ(a.dist_out(10, s.id("$r14")), inf);
  EXPECT_FALSE(a.live_out(10, s.id("$r14")));
  // Line 21: $r0 is read 4 instructions later on the loop path (line 1), but
  // the path out of the snippet is longer and MAX takes it -> SLEEP.
  EXPECT_EQ(a.dist_in(0, s.id("$r0")), 1u);
  EXPECT_EQ(a.dist_out(20, s.id("$r0")), inf);
  EXPECT_TRUE(a.live_out(20, s.id("$r0")));
  // Line 1: $r0 is read again two instructions later (line 3).
  EXPECT_EQ(a.dist_out(0, s.id("$r0")), 2u);
  // Line 1: $p2 is read by the guard of line 4 (a guard read is an access).
  EXPECT_EQ(a.dist_out(0, s.id("$p2")), 3u);
}

TEST(PowerAnalysis, DistSaturatesAtTheWindow) {
  Snippet s(figure_4_3());
  for (uint32_t w : {1u, 3u, 7u, 15u}) {
    const PowerAnalysis a(s.problem(w));
    for (uint32_t i = 0; i < s.lines().size(); ++i) {
      for (const char* r : {"$r0", "$r1", "$r8", "$r10", "$r12", "$r124", "$p2"}) {
        const uint32_t d = a.dist_in(i, s.id(r));
        EXPECT_TRUE((d >= 1 && d <= w) || d == w + 1) << "W " << w << " line " << i + 1 << " " << r << " " << d;
      }
    }
    EXPECT_GE(a.dist_passes(), 2u);  // the last pass changed nothing
  }
  // W = 1: only an access in the very next instruction keeps a register ON.
  const PowerAnalysis a1(s.problem(1));
  EXPECT_EQ(a1.power_out(11, s.id("$r1")), PowerState::On);     // line 12 -> line 13 reads $r1
  EXPECT_EQ(a1.power_out(0, s.id("$r0")), PowerState::Sleep);   // line 3 is two away
}

// Table 4.1, each row, on a straight line of four instructions (W = 2).
TEST(PowerAnalysis, Table41EveryRow) {
  PowerProblem p;
  p.window = 2;
  p.num_regs = 4;
  // 0: writes r0 r1 r2 r3; 1: nothing; 2: reads r0, writes r1; 3: nothing; 4: reads r2, writes r3; 5: leaves
  p.insts.resize(6);
  p.insts[0].defs = {0, 1, 2, 3};
  p.insts[2].uses = {0};
  p.insts[2].defs = {1};
  p.insts[4].uses = {2};
  p.insts[4].defs = {3};
  for (uint32_t i = 0; i < 5; ++i) p.insts[i].succs = {i + 1};
  const PowerAnalysis a(p);
  EXPECT_EQ(a.power_out(0, 0), PowerState::On);     // live, read 2 away:     ON
  EXPECT_EQ(a.power_out(0, 1), PowerState::On);     // dead, rewritten 2 away: ON
  EXPECT_EQ(a.power_out(0, 2), PowerState::Sleep);  // live, read 4 away:     SLEEP
  EXPECT_EQ(a.power_out(0, 3), PowerState::Off);    // dead, rewritten 4 away: OFF
  EXPECT_EQ(a.power_out(4, 2), PowerState::Off);    // no further access:      OFF
}

// keep_live (the divergent-region rule) turns OFF into SLEEP, never into ON.
TEST(PowerAnalysis, KeepLiveMakesOffSleep) {
  PowerProblem p;
  p.window = 1;
  p.num_regs = 1;
  p.insts.resize(3);
  p.insts[0].uses = {0};
  p.insts[0].succs = {1};
  p.insts[1].succs = {2};
  p.insts[2].defs = {0};
  EXPECT_EQ(PowerAnalysis(p).power_out(0, 0), PowerState::Off);
  p.keep_live.push_back({{0}, {0}});
  EXPECT_EQ(PowerAnalysis(p).power_out(0, 0), PowerState::Sleep);
}

TEST(PowerAnalysis, GuardedWritesDoNotKill) {
  PowerProblem p;
  p.window = 1;
  p.num_regs = 1;
  p.insts.resize(4);
  p.insts[0].uses = {0};
  p.insts[0].succs = {1};
  p.insts[1].succs = {2};
  p.insts[2].defs = {0};
  p.insts[2].defs_conditional = true;  // lanes with a false guard keep the value read at 3
  p.insts[2].succs = {3};
  p.insts[3].uses = {0};
  EXPECT_EQ(PowerAnalysis(p).power_out(0, 0), PowerState::Sleep);
}

TEST(PowerAnalysis, RejectsAWindowOfZero) {
  PowerProblem p;
  p.window = 0;
  EXPECT_ANY_THROW(PowerAnalysis{p});
}

}  // namespace
}  // namespace simtlm::frontend::passes
