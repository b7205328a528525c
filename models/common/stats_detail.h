// Helpers shared by the statistics sources (not part of the public API).
#pragma once

#include <memory>
#include <string>

#include "simtlm/stats.h"

namespace simtlm::stats::detail {

bool valid_name(const std::string& name);
// gpu.sm[3].l1d.hits -> gpu.sm[*].l1d.hits
std::string collapse_indices(const std::string& name);
// Parse a formula; syntax errors are Error(Internal) naming `owner` and the column.
std::shared_ptr<const Registry::Expr> parse_formula(const std::string& text, const std::string& owner);
// Deterministic short text form of a number for summaries.
std::string format_number(double x);

}  // namespace simtlm::stats::detail
