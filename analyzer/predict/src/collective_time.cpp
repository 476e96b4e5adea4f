#include "gpuprof/predict/collective_time.hpp"

namespace gpuprof::predict {

std::optional<double> collective_time_ns(const AllReduceCurve& curve, analysis::CollectiveKind kind,
                                         std::int64_t bytes, std::int32_t gpus) {
  const auto factor = analysis::bus_bandwidth_factor(kind, gpus);
  if (!factor || bytes <= 0 || gpus < 2) return std::nullopt;
  if (kind == analysis::CollectiveKind::all_reduce) return curve.time_ns(bytes, gpus);
  return curve.alpha_ns(gpus) + static_cast<double>(bytes) * *factor / curve.bus_gbps(bytes, gpus);
}

std::optional<std::int64_t> collective_bytes(analysis::CollectiveKind kind, std::int64_t in_bytes,
                                             std::int64_t out_bytes, std::int64_t group_size) {
  if (const auto bytes = analysis::operation_bytes(kind, in_bytes, out_bytes)) return bytes;
  std::int64_t gathered = 0;
  if (kind == analysis::CollectiveKind::all_gather && in_bytes != trace::kUnknown && group_size > 0 &&
      !__builtin_mul_overflow(in_bytes, group_size, &gathered))
    return gathered;
  return std::nullopt;
}

}  // namespace gpuprof::predict
