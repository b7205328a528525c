// Special-register table.
#include "frontend/ptx/special_regs.h"

namespace simtlm::frontend::ptx {

using ir::SpecialReg;

namespace {

struct Entry {
  std::string_view name;
  SpecialReg sreg;
  bool vector;
  unsigned bits;
};

constexpr Entry kEntries[] = {
    {"%tid", SpecialReg::Tid, true, 32},
    {"%ntid", SpecialReg::Ntid, true, 32},
    {"%ctaid", SpecialReg::Ctaid, true, 32},
    {"%nctaid", SpecialReg::Nctaid, true, 32},
    {"%laneid", SpecialReg::Laneid, false, 32},
    {"%warpid", SpecialReg::Warpid, false, 32},
    {"%nwarpid", SpecialReg::Nwarpid, false, 32},
    {"%smid", SpecialReg::Smid, false, 32},
    {"%nsmid", SpecialReg::Nsmid, false, 32},
    {"%gridid", SpecialReg::Gridid, false, 64},
    {"%clock", SpecialReg::Clock, false, 32},
    {"%clock64", SpecialReg::Clock64, false, 64},
    {"%globaltimer", SpecialReg::Globaltimer, false, 64},
    {"%globaltimer_lo", SpecialReg::GlobaltimerLo, false, 32},
    {"%globaltimer_hi", SpecialReg::GlobaltimerHi, false, 32},
    {"%lanemask_eq", SpecialReg::LanemaskEq, false, 32},
    {"%lanemask_le", SpecialReg::LanemaskLe, false, 32},
    {"%lanemask_lt", SpecialReg::LanemaskLt, false, 32},
    {"%lanemask_ge", SpecialReg::LanemaskGe, false, 32},
    {"%lanemask_gt", SpecialReg::LanemaskGt, false, 32},
    {"%dynamic_smem_size", SpecialReg::DynamicSmemSize, false, 32},
    {"%total_smem_size", SpecialReg::TotalSmemSize, false, 32},
    // Not a register but PTX's predefined run-time constant for the warp size
    // (what nvcc emits for `warpSize`): it reads like one, so it is one here.
    {"WARP_SZ", SpecialReg::WarpSz, false, 32},
};

// PTX special registers that exist but are not modelled.
constexpr std::string_view kUnsupported[] = {
    "%clock_hi", "%envreg", "%pm0", "%pm1", "%pm2", "%pm3", "%pm4", "%pm5", "%pm6", "%pm7",
    "%pm0_64", "%pm1_64", "%pm2_64", "%pm3_64", "%pm4_64", "%pm5_64", "%pm6_64", "%pm7_64",
    "%reserved_smem_offset_begin", "%reserved_smem_offset_end", "%reserved_smem_offset_cap",
    "%reserved_smem_offset_0", "%reserved_smem_offset_1", "%aggr_smem_size",
    "%cluster_ctaid", "%cluster_nctaid", "%cluster_ctarank", "%cluster_nctarank",
    "%clusterid", "%nclusterid", "%is_explicit_cluster", "%current_graph_exec",
};

}  // namespace

SpecialLookup lookup_special_register(std::string_view name, SpecialReg& sreg, uint8_t& component,
                                      unsigned& bits) {
  std::string_view base = name;
  std::string_view comp;
  size_t dot = name.find('.');
  if (dot != std::string_view::npos) {
    base = name.substr(0, dot);
    comp = name.substr(dot + 1);
  }
  for (const Entry& e : kEntries) {
    if (e.name != base) continue;
    sreg = e.sreg;
    bits = e.bits;
    component = 0;
    if (!e.vector) return comp.empty() ? SpecialLookup::Found : SpecialLookup::BadComponent;
    if (comp == "x") component = 0;
    else if (comp == "y") component = 1;
    else if (comp == "z") component = 2;
    else return SpecialLookup::BadComponent;
    return SpecialLookup::Found;
  }
  for (std::string_view u : kUnsupported) {
    if (base == u) return SpecialLookup::Unsupported;
    // %envreg<N>, %pm<N>
    if ((u == "%envreg") && base.substr(0, u.size()) == u) return SpecialLookup::Unsupported;
  }
  return SpecialLookup::NotSpecial;
}

std::string_view special_register_name(SpecialReg sreg) {
  for (const Entry& e : kEntries)
    if (e.sreg == sreg) return e.name;
  return "";
}

}  // namespace simtlm::frontend::ptx
