#include "models/common/mem_extension.h"

#include <cstdio>
#include <string>

#include "simtlm/error.h"

namespace simtlm::models {

const char* to_string(StateSpace space) {
  switch (space) {
    case StateSpace::Global: return "global";
    case StateSpace::Local: return "local";
    case StateSpace::Shared: return "shared";
    case StateSpace::Const: return "const";
    case StateSpace::Tex: return "tex";
    case StateSpace::Param: return "param";
    case StateSpace::Generic: return "generic";
    case StateSpace::Extra: return "extra";
  }
  return "?";
}

const char* to_string(AccessKind kind) {
  switch (kind) {
    case AccessKind::Load: return "load";
    case AccessKind::Store: return "store";
    case AccessKind::Atomic: return "atomic";
    case AccessKind::InstFetch: return "ifetch";
    case AccessKind::Fill: return "fill";
    case AccessKind::Writeback: return "writeback";
  }
  return "?";
}

void MemExtension::route_push(uint16_t port) {
  if (route_depth >= kMaxRouteDepth) {
    SC_REPORT_ERROR("simtlm/mem_extension", "route stack overflow: more than 4 switches in a request path");
    return;
  }
  route[route_depth++] = port;
}

uint16_t MemExtension::route_top() const {
  if (route_depth == 0) {
    SC_REPORT_ERROR("simtlm/mem_extension", "route stack empty: response without a recorded source port");
    return 0;
  }
  return route[route_depth - 1];
}

uint16_t MemExtension::route_pop() {
  const uint16_t port = route_top();
  if (route_depth > 0) {
    --route_depth;
  }
  return port;
}

void missing_mem_ext(const tlm::tlm_generic_payload& trans, const char* who) {
  char addr[32];
  std::snprintf(addr, sizeof addr, "0x%llx", static_cast<unsigned long long>(trans.get_address()));
  const std::string msg = std::string(who) + ": transaction at address " + addr + " has no MemExtension";
  SC_REPORT_ERROR("simtlm/mem_extension", msg.c_str());
  throw Error(ErrorKind::Internal, msg);  // in case the report handler does not throw
}

uint32_t sector_mask_of(uint64_t addr, uint32_t len, uint32_t line_bytes, uint32_t sector_bytes) {
  const uint64_t line = addr - addr % line_bytes;
  const uint64_t first = addr - line;
  uint64_t last = first + (len == 0 ? 1 : len) - 1;
  if (last >= line_bytes) {
    last = line_bytes - 1;
  }
  uint32_t mask = 0;
  for (uint64_t s = first / sector_bytes; s <= last / sector_bytes; ++s) {
    mask |= 1u << s;
  }
  return mask;
}

uint32_t sector_mask_of(const tlm::tlm_generic_payload& trans, const MemExtension* ext, uint32_t line_bytes,
                        uint32_t sector_bytes) {
  if (ext != nullptr && ext->sector_mask != 0) {
    return ext->sector_mask;
  }
  return sector_mask_of(trans.get_address(), trans.get_data_length(), line_bytes, sector_bytes);
}

namespace {

uint64_t transfer_bytes(const tlm::tlm_generic_payload& trans, const MemExtension* ext) {
  if (ext != nullptr && ext->sector_mask != 0) {
    return static_cast<uint64_t>(popcount32(ext->sector_mask)) * ext->sector_bytes;
  }
  return trans.get_data_length();
}

bool request_carries_data(const tlm::tlm_generic_payload& trans, const MemExtension* ext) {
  return (ext != nullptr && ext->kind == AccessKind::Atomic) || trans.is_write();
}

bool response_carries_data(const tlm::tlm_generic_payload& trans, const MemExtension* ext) {
  return (ext != nullptr && ext->kind == AccessKind::Atomic) || trans.is_read();
}

}  // namespace

uint64_t transfer_bytes(tlm::tlm_generic_payload& trans) { return transfer_bytes(trans, find_mem_ext(trans)); }

uint64_t request_data_bytes(tlm::tlm_generic_payload& trans) {
  const MemExtension* ext = find_mem_ext(trans);
  return request_carries_data(trans, ext) ? transfer_bytes(trans, ext) : 0;
}

uint64_t response_data_bytes(tlm::tlm_generic_payload& trans) {
  const MemExtension* ext = find_mem_ext(trans);
  return response_carries_data(trans, ext) ? transfer_bytes(trans, ext) : 0;
}

}  // namespace simtlm::models
