// `simtlm l1d-replay TRACE`: replays an L1D access trace written by
// `simtlm run --trace l1d` (platforms/common/l1d_trace.h) under LRU and
// Belady's optimal replacement (models/cache/cache_replay.h), per SM, and
// prints the miss rates beside the timing model's own (Rogers' SAGCS, seed
// note 002 §2.1: LRU replay within 0.1 % of the simulator's miss rate).
#include <algorithm>
#include <cmath>
#include <fstream>
#include <iomanip>
#include <map>
#include <set>
#include <ostream>
#include <sstream>

#include "apps/sim_options.h"
#include "models/cache/cache_replay.h"
#include "simtlm/error.h"

namespace simtlm::cli {

namespace {

const char* kReplayUsage =
    "usage: simtlm l1d-replay TRACE\n"
    "\n"
    "Replays an L1D access trace (simtlm run --trace l1d --out DIR writes DIR/l1d_trace.txt)\n"
    "per SM under LRU and under Belady's optimal replacement, with the L1D geometry and set\n"
    "indexing named in the trace's header, and prints the read miss rates: the timing model's\n"
    "own (line misses / read lookups), the LRU replay's and the optimal one's. Merges and\n"
    "sector misses find the line present: the replay counts them as hits, as does the model's\n"
    "line miss rate.\n";

struct PerSm {
  std::vector<models::ReplayAccess> accesses;
  uint64_t model_misses = 0;
  std::set<uint64_t> store_pending;  // lines a write-evict store will invalidate
};

std::string rate(uint64_t misses, uint64_t reads) {
  std::ostringstream os;
  os << std::fixed << std::setprecision(4) << (reads ? 100.0 * static_cast<double>(misses) / reads : 0.0) << " %";
  return os.str();
}

}  // namespace

int cmd_l1d_replay(const std::vector<std::string>& args, Io& io) {
  po::options_description desc("Options", 100);
  desc.add_options()("help,h", "show this help");
  po::options_description all;
  all.add(desc).add_options()("trace", po::value<std::string>(), "trace file");
  po::positional_options_description positional;
  positional.add("trace", 1);
  po::variables_map vm = parse_options(args, all, positional);
  if (vm.count("help")) {
    io.out << kReplayUsage << "\n" << desc;
    return kExitOk;
  }
  if (!vm.count("trace")) usage_error("l1d-replay: missing TRACE (a file written by simtlm run --trace l1d)");
  const std::string path = vm["trace"].as<std::string>();
  std::ifstream in(path);
  if (!in) throw Error(ErrorKind::Input, "cannot read the L1D trace " + path);

  models::CacheParams p;
  std::string text;
  if (!std::getline(in, text) || text.rfind("# simtlm l1d trace 1 ", 0) != 0) {
    throw Error(ErrorKind::Input, path + ":1: not an L1D trace (expected the header '# simtlm l1d trace 1 ...')");
  }
  std::istringstream header(text.substr(21));
  for (std::string kv; header >> kv;) {
    const size_t eq = kv.find('=');
    const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    bool ok = true;
    try {
      if (key == "sets") p.sets = static_cast<uint32_t>(std::stoul(value));
      if (key == "ways") p.ways = static_cast<uint32_t>(std::stoul(value));
      if (key == "line_bytes") p.line_bytes = static_cast<uint32_t>(std::stoul(value));
      if (key == "set_index") ok = models::parse_set_index(value, p.set_index);
      if (key == "write_policy") ok = models::parse_write_policy(value, p.write_policy);
    } catch (const std::exception&) {
      ok = false;
    }
    if (!ok) throw Error(ErrorKind::Input, path + ":1: bad header field '" + kv + "'");
  }

  std::map<unsigned, PerSm> sms;
  uint64_t lineno = 1;
  while (std::getline(in, text)) {
    ++lineno;
    if (text.empty() || text[0] == '#') continue;
    std::istringstream rec(text);
    unsigned sm = 0;
    uint64_t cycle = 0;
    int warp = 0;
    char op = 0, event = 0;
    std::string line_hex;
    if (!(rec >> sm >> cycle >> warp >> op >> event >> line_hex) || std::string("LSAE").find(op) == std::string::npos ||
        std::string("hmsge").find(event) == std::string::npos || (op == 'E') != (event == 'e')) {
      throw Error(ErrorKind::Input, path + ":" + std::to_string(lineno) + ": bad record '" + text + "'");
    }
    if (op == 'A') continue;  // atomics are not cached reads of the L1D
    PerSm& s = sms[sm];
    const uint64_t line = std::stoull(line_hex, nullptr, 16);
    // A store's invalidation takes effect when the model performs it (the
    // eviction record), which is later when the line's fill was in flight;
    // capacity evictions are the replay's own business and are skipped.
    if (op == 'S') {
      s.store_pending.insert(line);
    } else if (op == 'E') {
      if (s.store_pending.erase(line) != 0) s.accesses.push_back({line, true});
    } else {
      s.accesses.push_back({line, false});
      if (event == 'm') ++s.model_misses;
    }
  }

  uint64_t reads = 0, model = 0, lru = 0, opt = 0;
  double worst = 0.0;  // largest |LRU replay - model| miss-rate difference of one SM, in points
  for (const auto& [sm, s] : sms) {
    const models::ReplayResult r = models::replay_cache(p, s.accesses);
    reads += r.reads;
    model += s.model_misses;
    lru += r.lru_misses;
    opt += r.opt_misses;
    if (r.reads) {
      worst = std::max(worst, std::fabs(100.0 * (static_cast<double>(r.lru_misses) - s.model_misses) / r.reads));
    }
  }
  io.out << "L1D replay of " << path << ": " << sms.size() << " SMs, " << reads << " read lookups (" << p.sets
         << " sets x " << p.ways << " ways x " << p.line_bytes << " B, " << models::to_string(p.set_index)
         << " index, " << models::to_string(p.write_policy) << ")\n";
  io.out << "  model    " << model << " misses, miss rate " << rate(model, reads) << "\n";
  io.out << "  lru      " << lru << " misses, miss rate " << rate(lru, reads) << "\n";
  io.out << "  belady   " << opt << " misses, miss rate " << rate(opt, reads) << "\n";
  std::ostringstream w;
  w << std::fixed << std::setprecision(4) << worst;
  io.out << "  lru - model: " << std::fixed << std::setprecision(4)
         << (reads ? 100.0 * (static_cast<double>(lru) - static_cast<double>(model)) / reads : 0.0)
         << " points overall, at most " << w.str() << " points on one SM\n";
  return kExitOk;
}

}  // namespace simtlm::cli
