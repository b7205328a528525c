// A registry of named factories: how scheduler policies, register and
// shared-memory allocators (and other swappable parts) are looked up by the
// configuration value that selects them. An unknown name is Error(Config)
// naming the configuration key and the available names, so a value the
// schema accepts but nothing builds is a load-time error, never ignored.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "simtlm/error.h"

namespace simtlm::models {

template <typename Product, typename Params>
class FactoryRegistry {
 public:
  using Factory = std::function<std::unique_ptr<Product>(const Params&)>;

  // `key`: the configuration key whose value names the product.
  explicit FactoryRegistry(std::string key) : key_(std::move(key)) {}

  // Error(Internal) if `name` is already registered.
  void add(const std::string& name, Factory factory) {
    if (!factories_.emplace(name, std::move(factory)).second) {
      throw Error(ErrorKind::Internal, key_ + ": '" + name + "' is registered twice");
    }
  }
  void remove(const std::string& name) { factories_.erase(name); }
  bool contains(const std::string& name) const { return factories_.count(name) != 0; }
  std::vector<std::string> names() const {
    std::vector<std::string> n;
    for (const auto& [name, f] : factories_) n.push_back(name);
    return n;
  }
  std::string names_text() const {
    std::string s;
    for (const auto& [name, f] : factories_) s += (s.empty() ? "" : ", ") + name;
    return s;
  }

  std::unique_ptr<Product> make(const std::string& name, const Params& params) const {
    auto it = factories_.find(name);
    if (it == factories_.end()) {
      throw Error(ErrorKind::Config,
                  key_ + " '" + name + "' is not implemented yet (available: " + names_text() + ")");
    }
    return it->second(params);
  }

 private:
  std::string key_;
  std::map<std::string, Factory> factories_;
};

}  // namespace simtlm::models
