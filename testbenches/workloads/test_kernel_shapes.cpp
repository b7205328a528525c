// Workload::kernel_shapes() against the real launches: every registered
// workload declares the kernels it launches at the default size with their
// threads per CTA and dynamic shared memory; its Small size, run on the
// functional backend, must launch exactly that set of shapes (kernels in the
// same first-launch order). A workload whose Small launches use a different
// geometry on purpose is listed, with the reason, in kSmallExceptions.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "workload_harness.h"

namespace simtlm::workloads::testing {
namespace {

// (PTX entry, threads per CTA, dynamic shared bytes).
using Shape = std::tuple<std::string, uint32_t, uint32_t>;

std::string describe(const std::set<Shape>& shapes) {
  std::ostringstream os;
  os << "{";
  const char* sep = "";
  for (const Shape& s : shapes) {
    os << sep << std::get<0>(s) << ": " << std::get<1>(s) << " threads, " << std::get<2>(s)
       << " B dynamic smem";
    sep = "; ";
  }
  os << "}";
  return os.str();
}

// Workloads whose Small size launches a different set of shapes than the
// declared (default-size) one on purpose, with the exact Small set.
struct SmallException {
  std::string workload;
  std::set<Shape> small_shapes;
};

const std::vector<SmallException> kSmallExceptions = {
    // reduction: the first reduce_sum launch uses 128 threads per CTA at Small
    // (4 CTAs x 128, docs/workloads.md) and 256 at the default size; the final
    // one-CTA launch uses 256 threads at both sizes.
    {"reduction", {{"reduce_sum", 128, 0}, {"reduce_sum", 256, 0}}},
};

const SmallException* find_exception(const std::string& name) {
  for (const SmallException& e : kSmallExceptions)
    if (e.workload == name) return &e;
  return nullptr;
}

// Kernel names in order of first appearance.
template <typename T, typename NameOf>
std::vector<std::string> first_appearance(const std::vector<T>& items, NameOf name_of) {
  std::vector<std::string> order;
  for (const T& item : items) {
    const std::string& k = name_of(item);
    if (std::find(order.begin(), order.end(), k) == order.end()) order.push_back(k);
  }
  return order;
}

class KernelShapes : public ::testing::TestWithParam<std::string> {};

TEST_P(KernelShapes, DeclarationMatchesSmallLaunches) {
  const std::string name = GetParam();
  auto w = make_workload(name);
  ASSERT_NE(w, nullptr);

  const std::vector<KernelShape> declared = w->kernel_shapes();
  ASSERT_FALSE(declared.empty()) << name << " does not declare kernel_shapes()";
  std::set<Shape> declared_set;
  bool any_characteristic = false;
  for (const KernelShape& k : declared) {
    EXPECT_FALSE(k.kernel.empty());
    EXPECT_GT(k.threads_per_cta, 0u) << k.kernel;
    EXPECT_TRUE(declared_set.emplace(k.kernel, k.threads_per_cta, k.dynamic_shared_bytes).second)
        << k.kernel << " declared twice with the same shape";
    any_characteristic = any_characteristic || k.characteristic;
  }
  EXPECT_TRUE(any_characteristic) << "no kernel carries the class '" << w->info().klass << "'";

  Device dev;  // functional backend, default options
  w->setup(dev, Size::Small, 1);
  const std::vector<LaunchStats> stats = w->run(dev);
  ASSERT_FALSE(stats.empty());
  std::set<Shape> launched;
  for (const LaunchStats& s : stats) launched.emplace(s.kernel, s.threads_per_cta, s.dynamic_shared_bytes);

  EXPECT_EQ(first_appearance(stats, [](const LaunchStats& s) -> const std::string& { return s.kernel; }),
            first_appearance(declared, [](const KernelShape& k) -> const std::string& { return k.kernel; }))
      << "kernels are not declared in first-launch order";

  if (const SmallException* e = find_exception(name)) {
    EXPECT_NE(e->small_shapes, declared_set)
        << "the Small exception equals the declaration: remove it from kSmallExceptions";
    EXPECT_TRUE(launched == e->small_shapes)
        << "Small launches " << describe(launched) << ", kSmallExceptions expects "
        << describe(e->small_shapes);
  } else {
    EXPECT_TRUE(launched == declared_set)
        << "Small launches " << describe(launched) << ", kernel_shapes() declares "
        << describe(declared_set);
  }
}

std::string test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string s = info.param;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(AllWorkloads, KernelShapes,
                         ::testing::ValuesIn(WorkloadRegistry::names()), test_name);

TEST(KernelShapesExceptions, NameRegisteredWorkloads) {
  const std::vector<std::string> names = WorkloadRegistry::names();
  for (const SmallException& e : kSmallExceptions)
    EXPECT_NE(std::find(names.begin(), names.end(), e.workload), names.end())
        << e.workload << " in kSmallExceptions is not registered";
}

}  // namespace
}  // namespace simtlm::workloads::testing
