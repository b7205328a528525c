// Test harness of the functional engine: loads PTX text through the front
// end, places module .global/.const variables in a GlobalMemory (as the
// runtime does), builds parameter buffers and runs launches.
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "frontend/load.h"
#include "functional/launch.h"
#include "functional/memory.h"
#include "simtlm/error.h"

namespace simtlm::functional::test {

class Args {
 public:
  template <typename T>
  Args& add(const T& v) {
    std::vector<uint8_t> b(sizeof(T));
    std::memcpy(b.data(), &v, sizeof(T));
    args_.push_back(std::move(b));
    return *this;
  }
  const std::vector<std::vector<uint8_t>>& list() const { return args_; }

 private:
  std::vector<std::vector<uint8_t>> args_;
};

inline Dim3u dim(uint32_t x, uint32_t y = 1, uint32_t z = 1) {
  Dim3u d;
  d.x = x;
  d.y = y;
  d.z = z;
  return d;
}

class Harness {
 public:
  explicit Harness(const std::string& ptx, const std::string& file = "test.ptx")
      : module_(frontend::load_ptx_text(ptx, file)) {
    const auto& vars = module_->vars;
    var_addresses_.assign(vars.size(), 0);
    for (size_t i = 0; i < vars.size(); ++i) {
      const ir::Variable& v = vars[i];
      if (v.space != ir::StateSpace::Global && v.space != ir::StateSpace::Const) continue;
      const uint64_t addr = memory_.allocate(v.size ? v.size : 1);
      var_addresses_[i] = addr;
      if (!v.init.empty()) memory_.write(addr, v.init.data(), v.init.size());
    }
    for (size_t i = 0; i < vars.size(); ++i) {
      for (const auto& [offset, target] : vars[i].address_inits) {
        const uint64_t value = var_addresses_[target];
        if (var_addresses_[i]) memory_.write(var_addresses_[i] + offset, &value, 8);
      }
    }
  }

  ir::Module& module() { return *module_; }
  GlobalMemory& memory() { return memory_; }
  const std::vector<uint64_t>& var_addresses() const { return var_addresses_; }

  uint64_t var_address(const std::string& name) const {
    for (size_t i = 0; i < module_->vars.size(); ++i)
      if (module_->vars[i].name == name) return var_addresses_[i];
    ADD_FAILURE() << "no variable " << name;
    return 0;
  }

  uint64_t alloc(uint64_t bytes) { return memory_.allocate(bytes); }

  template <typename T>
  uint64_t upload(const std::vector<T>& v) {
    const uint64_t a = memory_.allocate(v.size() * sizeof(T));
    if (!v.empty()) memory_.write(a, v.data(), v.size() * sizeof(T));
    return a;
  }
  template <typename T>
  std::vector<T> download(uint64_t addr, size_t n) const {
    std::vector<T> v(n);
    if (n) memory_.read(v.data(), addr, n * sizeof(T));
    return v;
  }
  template <typename T>
  T read(uint64_t addr) const {
    T v;
    memory_.read(&v, addr, sizeof(T));
    return v;
  }

  const ir::Function& kernel(const std::string& name) const {
    const ir::Function* k = module_->find_kernel(name);
    if (!k) throw std::runtime_error("no kernel " + name);
    return *k;
  }

  LaunchRequest request(const std::string& name, Dim3u grid, Dim3u block, const Args& args,
                        unsigned warp_size = 32, uint32_t dynamic_shared = 0) const {
    const ir::Function& k = kernel(name);
    LaunchRequest r;
    r.module = module_.get();
    r.kernel = &k;
    r.grid = grid;
    r.block = block;
    r.warp_size = warp_size;
    r.dynamic_shared_bytes = dynamic_shared;
    r.var_addresses = &var_addresses_;
    r.params.assign(k.param_bytes, 0);
    EXPECT_EQ(args.list().size(), k.params.size()) << "argument count of " << name;
    for (size_t i = 0; i < k.params.size() && i < args.list().size(); ++i) {
      const ir::Variable& p = module_->vars[k.params[i]];
      const auto& bytes = args.list()[i];
      EXPECT_LE(p.param_offset + bytes.size(), r.params.size());
      std::memcpy(r.params.data() + p.param_offset, bytes.data(), bytes.size());
    }
    return r;
  }

  LaunchCounters run(const std::string& name, Dim3u grid, Dim3u block, const Args& args,
                     unsigned warp_size = 32, uint32_t dynamic_shared = 0) {
    LaunchRequest r = request(name, grid, block, args, warp_size, dynamic_shared);
    return run_launch(r, memory_);
  }

 private:
  std::unique_ptr<ir::Module> module_;
  GlobalMemory memory_;
  std::vector<uint64_t> var_addresses_;
};

// Runs `fn` expecting simtlm::Error of `kind`; returns its message.
template <typename F>
std::string expect_error(ErrorKind kind, F&& fn) {
  try {
    fn();
  } catch (const Error& e) {
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no simtlm::Error thrown";
  return "";
}

}  // namespace simtlm::functional::test
