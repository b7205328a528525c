#include "models/sched/daws_profile.h"

#include <algorithm>
#include <fstream>
#include <sstream>

#include "simtlm/error.h"

namespace simtlm::models::sched {

DawsProfile DawsProfile::read(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    throw Error(ErrorKind::Input, "DAWS profile '" + path +
                                      "' (gpu.sm.scheduler.daws.profile) cannot be read; write one with a "
                                      "detected-DAWS run and gpu.sm.scheduler.daws.profile_out");
  }
  std::ostringstream text;
  text << in.rdbuf();
  return parse(text.str(), path);
}

DawsProfile DawsProfile::parse(const std::string& text, const std::string& path) {
  DawsProfile p;
  std::istringstream in(text);
  std::string line;
  Kernel* current = nullptr;
  for (uint32_t no = 1; std::getline(in, line); ++no) {
    auto bad = [&](const std::string& why) {
      throw Error(ErrorKind::Input, path + ":" + std::to_string(no) + ": DAWS profile: " + why);
    };
    std::istringstream ls(line);
    std::string word;
    if (!(ls >> word) || word[0] == '#') continue;
    std::string k1, k2, rest;
    if (word == "kernel") {
      std::string name;
      long long n = -1;
      if (!(ls >> name >> k1 >> n) || k1 != "instructions" || n <= 0 || (ls >> rest)) {
        bad("expected 'kernel <name> instructions <count>'");
      }
      if (p.kernels.count(name)) bad("kernel '" + name + "' appears twice");
      current = &p.kernels[name];
      current->instructions = static_cast<uint32_t>(n);
    } else if (word == "loop") {
      long long pc = -1, d = -1, c = -1;
      if (!(ls >> pc >> k1 >> d >> k2 >> c) || k1 != "diverged" || k2 != "converged" || pc < 0 || d < 0 ||
          c < 0 || (ls >> rest)) {
        bad("expected 'loop <begin pc> diverged <groups> converged <groups>'");
      }
      if (current == nullptr) bad("a loop line before any kernel line");
      if (static_cast<uint64_t>(pc) >= current->instructions) bad("loop pc " + std::to_string(pc) + " is past the kernel");
      if (current->loops.count(static_cast<uint32_t>(pc))) bad("loop " + std::to_string(pc) + " appears twice");
      current->loops[static_cast<uint32_t>(pc)] = DawsLoopFootprint{static_cast<uint32_t>(d), static_cast<uint32_t>(c)};
    } else {
      bad("unknown record '" + word + "' (expected kernel or loop)");
    }
  }
  return p;
}

std::string DawsProfile::text() const {
  std::ostringstream os;
  os << "# simtlm DAWS profile (gpu.sm.scheduler.daws.profile_out): per kernel, the loops with intra-warp\n"
     << "# locality and their footprint per thread in repetition groups (models/sched/daws_profile.h)\n";
  for (const auto& [name, k] : kernels) {
    os << "kernel " << name << " instructions " << k.instructions << "\n";
    for (const auto& [pc, f] : k.loops) {
      os << "loop " << pc << " diverged " << f.diverged_groups << " converged " << f.converged_groups << "\n";
    }
  }
  return os.str();
}

void DawsProfile::write(const std::string& path) const {
  std::ofstream out(path);
  out << text();
  if (!out) throw Error(ErrorKind::Input, "cannot write the DAWS profile '" + path + "'");
}

void DawsProfile::merge(const DawsProfile& other) {
  for (const auto& [name, k] : other.kernels) {
    Kernel& mine = kernels[name];
    mine.instructions = k.instructions;
    for (const auto& [pc, f] : k.loops) {
      DawsLoopFootprint& m = mine.loops[pc];
      m.diverged_groups = std::max(m.diverged_groups, f.diverged_groups);
      m.converged_groups = std::max(m.converged_groups, f.converged_groups);
    }
  }
}

}  // namespace simtlm::models::sched
