// Configuration keys of the interconnect (gpu.noc.*).
#include <cstdint>
#include <vector>

#include "models/common/config_keys.h"

namespace simtlm::config_keys {
namespace {

void noc_keys(std::vector<ConfigKey>& t) {
  t.push_back(E("gpu.noc.topology", "crossbar", {"crossbar", "ideal"},
                "SM <-> L2 interconnect: a crossbar with per-port flit bandwidth and buffers, or an ideal "
                "network (fixed latency, unlimited bandwidth).",
                "GPGPU-Sim config_fermi_islip.icnt: topology fly, k = 27, n = 1 (one 27x27 switch)"));
  t.push_back(U("gpu.noc.latency", 4, "noc cycles", 1, 4096, "Zero-load traversal latency of a single-flit packet.",
                kDecision));
  t.push_back(U("gpu.noc.flit_bytes", 32, "bytes", 1, 4096, "Flit size.", kIcnt));
  t.push_back(U("gpu.noc.port_bandwidth_flits", 1, "flits per noc cycle", 1, 64,
                "Flits each input and output port moves per interconnect cycle.", kDecision));
  t.push_back(U("gpu.noc.buffer_flits", 8, "flits", 1, 65536, "Buffer per port (and virtual channel).",
                "GPGPU-Sim config_fermi_islip.icnt vc_buf_size = 8"));
  t.push_back(U("gpu.noc.header_bytes", 8, "bytes", 0, 4096,
                "Packet header bytes (a read request is a header only; replies and writes add the data).",
                "GPGPU-Sim mem_fetch READ_PACKET_SIZE = 8"));
}

const Registration kNoc(kRankNoc, "noc", &noc_keys);

}  // namespace
}  // namespace simtlm::config_keys
