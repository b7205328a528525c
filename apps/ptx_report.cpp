#include "apps/ptx_report.h"

#include <algorithm>
#include <iomanip>

#include "frontend/analysis/analyze.h"
#include "frontend/analysis/static_cost.h"
#include "frontend/ptx/demangle.h"
#include "runtime/launch_checks.h"

namespace simtlm::cli {

namespace {

std::string dims(const uint32_t d[3]) {
  return std::to_string(d[0]) + "x" + std::to_string(d[1] ? d[1] : 1) + "x" +
         std::to_string(d[2] ? d[2] : 1);
}

void row(std::ostream& out, const std::string& label, const std::string& value) {
  out << "  " << std::left << std::setw(20) << label << value << "\n";
}

void print_params(std::ostream& out, const ir::Module& module, const ir::Function& f) {
  std::vector<uint32_t> all = f.params;
  all.insert(all.end(), f.returns.begin(), f.returns.end());
  row(out, "parameters", std::to_string(f.params.size()) +
                             (f.returns.empty() ? "" : " (+" + std::to_string(f.returns.size()) +
                                                           " return value)"));
  if (all.empty()) return;
  // The name column fits the longest name (nvcc's are the mangled kernel
  // name + "_param_N"), with two spaces before the type.
  size_t name_width = 4;
  for (uint32_t v : all) name_width = std::max(name_width, module.vars.at(v).name.size());
  const int nw = static_cast<int>(name_width + 2);
  out << "    " << std::left << std::setw(4) << "#" << std::setw(nw) << "name" << std::setw(12)
      << "type" << std::right << std::setw(6) << "size" << std::setw(8) << "offset" << "\n";
  for (size_t i = 0; i < all.size(); ++i) {
    const ir::Variable& p = module.vars.at(all[i]);
    bool is_return = i >= f.params.size();
    out << "    " << std::left << std::setw(4) << (is_return ? "ret" : std::to_string(i))
        << std::setw(nw) << p.name << std::setw(12) << runtime::param_type_text(p) << std::right
        << std::setw(6) << runtime::param_size(p) << std::setw(8)
        << (f.is_entry ? std::to_string(p.param_offset) : std::string("-")) << "\n";
  }
  if (f.is_entry) row(out, "parameter bytes", std::to_string(f.param_bytes));
}

// "N", then the constant trip counts the static cost uses (analysis/
// static_cost.h), in loop-header order: "3 (constant trip count: 8, 16)".
std::string loops_text(const ir::Function& f) {
  std::string text = std::to_string(f.analysis.loop_headers.size());
  const auto& a = f.analysis.analyses;
  if (!a) return text;
  std::string counts;
  for (const auto& trip : frontend::analysis::constant_trip_counts(f, a->cfg, a->dominators, a->loops))
    if (trip) counts += (counts.empty() ? "" : ", ") + std::to_string(*trip);
  return counts.empty() ? text : text + " (constant trip count: " + counts + ")";
}

void print_function(std::ostream& out, const ir::Module& module, const ir::Function& f) {
  out << "\n" << (f.is_entry ? "kernel " : "function ") << f.name << "  (" << module.file << ":"
      << f.loc.line << ", " << (f.is_entry ? ".entry" : ".func") << ")\n";
  const std::string demangled = frontend::ptx::demangle(f.name);
  if (!demangled.empty()) row(out, "demangled", demangled);
  if (!f.rejected.empty()) {
    row(out, "rejected", f.rejected);
    return;
  }
  print_params(out, module, f);
  row(out, "static shared", std::to_string(f.static_shared_bytes) + " bytes");
  row(out, "local per thread", std::to_string(f.local_bytes) + " bytes");
  const ir::FunctionAnalysis& a = f.analysis;
  if (a.done) {
    row(out, "registers", std::to_string(a.regs_per_thread) + " x 32-bit, predicates " +
                              std::to_string(a.pred_regs));
    row(out, "max live registers", std::to_string(a.max_live_regs32) + " x 32-bit");
  } else {
    row(out, "registers", "not analysed (" + std::to_string(f.regs.size()) + " virtual)");
  }
  row(out, "instructions", std::to_string(f.insts.size()));
  row(out, "basic blocks", std::to_string(f.blocks.size()));
  row(out, "loops", a.done ? loops_text(f) : "not analysed");
  std::string directives;
  if (f.reqntid[0]) directives += ".reqntid " + dims(f.reqntid) + " ";
  if (f.maxntid[0]) directives += ".maxntid " + dims(f.maxntid) + " ";
  if (f.minnctapersm) directives += ".minnctapersm " + std::to_string(f.minnctapersm) + " ";
  if (f.maxnreg) directives += ".maxnreg " + std::to_string(f.maxnreg) + " ";
  if (!directives.empty()) row(out, "directives", directives.substr(0, directives.size() - 1));
}

bool is_module_variable(const ir::Module& module, uint32_t index) {
  for (const ir::Function& f : module.functions) {
    for (uint32_t v : f.locals)
      if (v == index) return false;
  }
  const ir::Variable& v = module.vars[index];
  return !v.is_kernel_param && !v.is_func_param;
}

}  // namespace

void print_ptx_report(std::ostream& out, const ir::Module& module, const std::string& only_kernel) {
  size_t kernels = 0, funcs = 0;
  for (const ir::Function& f : module.functions) (f.is_entry ? kernels : funcs)++;
  out << module.file << ": PTX " << module.version << ", target " << module.target << ", "
      << module.address_size << "-bit addresses; " << kernels << " kernel(s), " << funcs
      << " device function(s)\n";
  if (only_kernel.empty()) {
    bool header = false;
    for (uint32_t i = 0; i < module.vars.size(); ++i) {
      const ir::Variable& v = module.vars[i];
      if (!is_module_variable(module, i)) continue;
      if (!header) out << "module variables:\n";
      header = true;
      out << "  ." << ir::space_name(v.space) << " " << v.name << ": " << v.size << " bytes"
          << (v.is_extern ? " (extern)" : "") << (v.init.empty() ? "" : " (initialised)") << "\n";
    }
  }
  for (const ir::Function& f : module.functions) {
    if (!only_kernel.empty() && f.name != only_kernel) continue;
    print_function(out, module, f);
  }
}

}  // namespace simtlm::cli
