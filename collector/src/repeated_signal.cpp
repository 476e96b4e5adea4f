#include "gpuprof/collector/repeated_signal.hpp"

namespace gpuprof::collector {
namespace {

constexpr std::int64_t kRepeatGraceNs = 2'000'000'000;

}  // namespace

bool is_the_same_request(std::int64_t now_ns, std::int64_t first_ns, SignalOrigin origin) {
  // 0: the first signal's handler, on another thread, has not stamped its time yet; it came just now.
  if (first_ns != 0 && now_ns - first_ns > kRepeatGraceNs) return false;
  return origin.sent_by_a_process && origin.from_parent_or_own_group;
}

}  // namespace gpuprof::collector
