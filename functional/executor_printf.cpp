// Execution of CUDA's device printf (Handler::Vprintf): each executing lane's
// call is formatted at once — format string, arguments and %s strings are read
// from the memory the thread sees when it calls — and its text goes into the
// launch's printf buffer, which orders the output (functional/printf_buffer.h).
#include "functional/executor_internal.h"
#include "functional/printf_format.h"
#include "simtlm/error.h"

namespace simtlm::functional::detail {

namespace {

inline unsigned first_lane(uint64_t m) { return static_cast<unsigned>(__builtin_ctzll(m)); }

// Generic addresses as one lane resolves them (functional/launch.h windows).
class LaneMemory : public PrintfMemory {
 public:
  LaneMemory(Warp& warp, Cta& cta, const LaunchContext& ctx, unsigned lane)
      : warp_(warp), cta_(cta), ctx_(ctx), lane_(lane) {}

  bool byte(uint64_t a, uint8_t& out) const override {
    const uint8_t* p = nullptr;
    if (a - kSharedWindowBase < kWindowSize) {
      const uint64_t off = a - kSharedWindowBase;
      if (off < cta_.shared_size()) p = cta_.shared() + off;
    } else if (a - kLocalWindowBase < kWindowSize) {
      const uint64_t off = a - kLocalWindowBase;
      if (off < cta_.local_size()) p = cta_.local(warp_.first_thread() + lane_) + off;
    } else {
      p = ctx_.memory().translate(a, 1);
    }
    if (p == nullptr) return false;
    out = *p;
    return true;
  }

 private:
  Warp& warp_;
  Cta& cta_;
  const LaunchContext& ctx_;
  unsigned lane_;
};

}  // namespace

void exec_vprintf(const DecodedInst& d, Warp& warp, Cta& cta, const LaunchContext& ctx, uint64_t exec) {
  const uint64_t* fmt = src_lanes(d.src[0], 0, warp, cta, ctx);
  const uint64_t* args = src_lanes(d.src[1], 1, warp, cta, ctx);
  uint64_t* result = d.dst[0] == kNoDst ? nullptr : warp.regs() + d.dst[0];
  PrintfBuffer* buffer = ctx.printf_buffer();
  for (uint64_t m = exec; m; m &= m - 1) {
    const unsigned l = first_lane(m);
    PrintfCall call;
    try {
      call = format_device_printf(fmt[l], args[l], LaneMemory(warp, cta, ctx, l));
    } catch (const PrintfError& e) {
      throw Error(e.fault ? ErrorKind::Fault : ErrorKind::Ptx,
                  std::string(e.what()) + " in " + describe_lane(ctx, cta, warp, nullptr, l));
    }
    if (result != nullptr) result[l] = static_cast<uint32_t>(call.result);
    if (buffer != nullptr) buffer->add(cta.linear_id(), warp.first_thread() + l, std::move(call.text));
  }
}

}  // namespace simtlm::functional::detail
