// Pattern matching over a registry (Registry::match and the aggregates that use
// it): which names a pattern selects and in which order. Patterns without a
// whole-segment '*' look only at the names of their shape; these tests pin the
// results to hand-written lists and to a scan of every name.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "simtlm/stats.h"

namespace {

using namespace simtlm::stats;
using Names = std::vector<std::string>;

// Registers counters under the given names, in the given (not sorted) order.
struct Registered {
  Registry reg;
  std::deque<std::uint64_t> values;  // stable addresses
  explicit Registered(const Names& names) {
    for (const std::string& n : names) add(n);
  }
  void add(const std::string& name) {
    values.push_back(values.size() + 1);
    reg.counter(name, &values.back(), "", "");
  }
};

// Names that share prefixes, shapes and index values with each other.
const Names kNames = {
    "gpu.sm[10].hits", "gpu.sm[2].hits",  "gpu.sm[1].hits",   "gpu.sm[2].hits2", "gpu.sm[2].l1d.hits",
    "gpu.sm.hits",     "gpu.smx[0].hits", "gpu.sm[3][1].hits", "gpu.l2[0].hits", "gpu.l2.hits",
    "gpu.hits",        "hits",            "gpu.sm[2]",        "gpu.sm[02].hits", "gpu.l2[0].bank[3].hits",
};

TEST(StatsMatch, IndexWildcardsSelectOneShapeInNaturalOrder) {
  Registered r(kNames);
  // sm[10] registered first: the result is in natural order, not registration order.
  EXPECT_EQ(r.reg.match("gpu.sm[*].hits"),
            (Names{"gpu.sm[1].hits", "gpu.sm[2].hits", "gpu.sm[02].hits", "gpu.sm[10].hits"}));
  EXPECT_EQ(r.reg.match("gpu.sm[*]"), (Names{"gpu.sm[2]"}));
  EXPECT_EQ(r.reg.match("gpu.sm[*][*].hits"), (Names{"gpu.sm[3][1].hits"}));
  EXPECT_EQ(r.reg.match("gpu.l2[*].hits"), (Names{"gpu.l2[0].hits"}));
  EXPECT_EQ(r.reg.match("gpu.l2[*].bank[*].hits"), (Names{"gpu.l2[0].bank[3].hits"}));
  EXPECT_EQ(r.reg.match("gpu.l2[0].bank[*].hits"), (Names{"gpu.l2[0].bank[3].hits"}));
  EXPECT_EQ(r.reg.match("gpu.l2[*].bank[3].hits"), (Names{"gpu.l2[0].bank[3].hits"}));
  EXPECT_EQ(r.reg.match("gpu.smx[*].hits"), (Names{"gpu.smx[0].hits"}));
}

TEST(StatsMatch, LiteralIndicesSelectOnlyThatSpelling) {
  Registered r(kNames);
  // Same shape as sm[02] and sm[10], but indices compare as written.
  EXPECT_EQ(r.reg.match("gpu.sm[2].hits"), (Names{"gpu.sm[2].hits"}));
  EXPECT_EQ(r.reg.match("gpu.sm[02].hits"), (Names{"gpu.sm[02].hits"}));
  EXPECT_EQ(r.reg.match("gpu.sm[3].hits"), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm.hits"), (Names{"gpu.sm.hits"}));
  EXPECT_EQ(r.reg.match("hits"), (Names{"hits"}));
}

TEST(StatsMatch, SegmentWildcardsAtStartMiddleAndEnd) {
  Registered r(kNames);
  EXPECT_EQ(r.reg.match("*.hits"), (Names{"gpu.hits"}));
  EXPECT_EQ(r.reg.match("gpu.*.hits"), (Names{"gpu.l2.hits", "gpu.l2[0].hits", "gpu.sm.hits", "gpu.sm[1].hits",
                                               "gpu.sm[2].hits", "gpu.sm[02].hits", "gpu.sm[3][1].hits",
                                               "gpu.sm[10].hits", "gpu.smx[0].hits"}));
  EXPECT_EQ(r.reg.match("gpu.sm[2].*"), (Names{"gpu.sm[2].hits", "gpu.sm[2].hits2"}));
  EXPECT_EQ(r.reg.match("gpu.sm[*].*"),
            (Names{"gpu.sm[1].hits", "gpu.sm[2].hits", "gpu.sm[2].hits2", "gpu.sm[02].hits", "gpu.sm[10].hits"}));
  EXPECT_EQ(r.reg.match("*"), (Names{"hits"}));
  EXPECT_EQ(r.reg.match("*.*"), (Names{"gpu.hits", "gpu.sm[2]"}));
}

TEST(StatsMatch, PrefixesOfNamesAndMisspellingsMatchNothing) {
  Registered r(kNames);
  EXPECT_EQ(r.reg.match("gpu.s"), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm"), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm[*].hit"), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm[*].hits.x"), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm[*].nothing"), Names{});
  EXPECT_EQ(r.reg.match(""), Names{});
  EXPECT_EQ(r.reg.match("gpu.sm*.hits"), Names{});  // '*' inside a segment is no wildcard
  EXPECT_EQ(r.reg.match("gpu.sm[*2].hits"), Names{});
  EXPECT_EQ(Registry().match("gpu.sm[*].hits"), Names{});
}

TEST(StatsMatch, RegistrationAfterAMatchIsSeen) {
  Registered r(kNames);
  EXPECT_EQ(r.reg.match("gpu.sm[*].hits").size(), 4u);
  EXPECT_EQ(r.reg.match("gpu.sm[*].misses"), Names{});
  r.add("gpu.sm[5].hits");
  r.add("gpu.sm[0].misses");
  EXPECT_EQ(r.reg.match("gpu.sm[*].hits"),
            (Names{"gpu.sm[1].hits", "gpu.sm[2].hits", "gpu.sm[02].hits", "gpu.sm[5].hits", "gpu.sm[10].hits"}));
  EXPECT_EQ(r.reg.match("gpu.sm[*].misses"), (Names{"gpu.sm[0].misses"}));
  // Aggregates use the same selection; each counter holds its registration position (from 1).
  EXPECT_DOUBLE_EQ(r.reg.sum("gpu.sm[*].hits", r.reg.capture()), 3.0 + 2.0 + 14.0 + 16.0 + 1.0);
  EXPECT_DOUBLE_EQ(r.reg.evaluate("count(gpu.sm[*].misses)", r.reg.capture()), 1.0);
}

// Every pattern selects exactly the names that name_matches() accepts, in the
// order of names(): the result of testing every registered name.
TEST(StatsMatch, SameAsTestingEveryName) {
  Registered r(kNames);
  for (std::size_t i = 0; i < 40; ++i) r.add("gpu.sm[" + std::to_string(i) + "].l1d.misses");
  const Names patterns = {"gpu.sm[*].hits",      "gpu.sm[*].l1d.misses", "gpu.sm[17].l1d.misses", "gpu.sm[*].l1d.*",
                          "gpu.*.l1d.misses",    "*.*.l1d.misses",       "gpu.sm[*].*.misses",    "gpu.sm[*]",
                          "gpu.sm[*][*].hits",   "gpu.l2[*].*",          "gpu.l2[*].bank[*].*",   "*.*",
                          "gpu.sm[2].l1d.hits",  "gpu.smx[*].hits",      "gpu",                   "*.sm[*].hits"};
  for (const std::string& p : patterns) {
    Names expected;
    for (const std::string& n : r.reg.names()) {
      if (name_matches(p, n)) expected.push_back(n);
    }
    EXPECT_EQ(r.reg.match(p), expected) << p;
  }
}

}  // namespace
