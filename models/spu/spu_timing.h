// How the SM times the SPU instructions (frontend/ptx/spu_extensions.h;
// docs/spu.md): CB loads and stores go through the LD/ST unit to the memory
// space of their direction, one extra space per CB port of a unit, each with
// its own TLM socket (SmParams::memory_spaces, Sm::memory_space_socket):
//   ld.cb.north -> cb_north (consumer side of the unit's incoming north link)
//   ld.cb.west  -> cb_west
//   st.cb.south -> cb_south (producer side of its outgoing south link)
//   st.cb.east  -> cb_east
// bar.blocksync and spu.sreg keep the default (the SP pipeline's issue; the
// rendezvous itself is the spu platform's, platforms/spu/).
#pragma once

#include <string>
#include <vector>

namespace simtlm::models::spu {

// The CB memory spaces of every SPU unit, in the functional model's direction
// order (north, west, south, east: functional::spu::Dir).
const std::vector<std::string>& cb_spaces();

// Registers the CB instructions' timing (models::register_extension_timing).
// Idempotent; the spu platform calls it when it is built.
void register_cb_timing();

}  // namespace simtlm::models::spu
