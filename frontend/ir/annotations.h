// Per-instruction annotations: a side table in ir::Function, keyed by
// annotation name, holding one value of one type per instruction. A front-end
// pass attaches a column; the timing model (or a later pass) looks it up by
// name and type once per launch and indexes it by pc.
//
// Columns are immutable once attached and shared by copies of the function
// (kernel variants copy the module, then their launch-shape passes attach
// columns of their own). Names are "<pass or mechanism>.<what>".
//
// Intended uses:
//  - GREENER's power-state annotation: a pass after `analyze` computes, per
//    instruction, the power state each register may enter once it issues
//    (from FunctionAnalysis::analyses->liveness) and attaches a column of
//    uint8_t "greener.power_state"; the register-file power model reads
//    column[pc] when a warp issues pc.
//  - FineReg's live-register vectors: a pass attaches a column of
//    std::vector<uint32_t> "finereg.live_regs" (analysis::live_physical_regs of
//    live_in(pc), physical numbering); the CTA table reads column[pc] of a
//    suspended warp's pc to know which registers to keep.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <typeindex>
#include <typeinfo>
#include <utility>
#include <vector>

#include "simtlm/error.h"

namespace simtlm::ir {

class InstructionAnnotations {
 public:
  // Attaches column `name`: values[pc] for every instruction pc of a function
  // of `num_insts` instructions. Error(Internal) when the name is taken or the
  // column does not have one value per instruction (a pass bug).
  template <typename T>
  void attach(const std::string& name, std::vector<T> values, size_t num_insts) {
    if (values.size() != num_insts) {
      throw Error(ErrorKind::Internal, "annotation '" + name + "' has " + std::to_string(values.size()) +
                                           " values for " + std::to_string(num_insts) + " instructions");
    }
    if (columns_.count(name)) throw Error(ErrorKind::Internal, "annotation '" + name + "' is attached twice");
    columns_.emplace(name, Column{std::type_index(typeid(T)),
                                  std::make_shared<const std::vector<T>>(std::move(values))});
  }

  // Column `name` as values of type T; nullptr when no such column is attached.
  // Error(Internal) when it exists with another type.
  template <typename T>
  const std::vector<T>* find(const std::string& name) const {
    auto it = columns_.find(name);
    if (it == columns_.end()) return nullptr;
    if (it->second.type != std::type_index(typeid(T)))
      throw Error(ErrorKind::Internal, "annotation '" + name + "' is read with another type than attached");
    return static_cast<const std::vector<T>*>(it->second.values.get());
  }

  bool has(const std::string& name) const { return columns_.count(name) != 0; }
  bool empty() const { return columns_.empty(); }
  // Attached names, sorted.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto& [name, column] : columns_) out.push_back(name);
    return out;
  }

 private:
  struct Column {
    std::type_index type;
    std::shared_ptr<const void> values;  // const std::vector<type>
  };
  std::map<std::string, Column> columns_;
};

}  // namespace simtlm::ir
