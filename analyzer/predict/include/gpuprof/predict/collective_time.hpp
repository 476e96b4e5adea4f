#pragma once

// The time of any collective from a link's all-reduce curve (DESIGN.md,
// "Prediction", Collectives): t = alpha(N) + S * factor / busBW(S, N), with S the
// operation's size and the factor as nccl-tests defines them (all-reduce
// 2(N-1)/N; all-gather, reduce-scatter, all-to-all (N-1)/N; broadcast, reduce,
// send, recv 1). nccl-tests' bus bandwidth is what makes the kinds comparable,
// so the all-reduce table's bandwidth stands for every kind on that link.

#include <cstdint>
#include <optional>

#include "gpuprof/analysis/collectives.hpp"
#include "gpuprof/predict/allreduce_curve.hpp"

namespace gpuprof::predict {

// nullopt for `other` kinds, no bytes or fewer than 2 GPUs.
std::optional<double> collective_time_ns(const AllReduceCurve& curve, analysis::CollectiveKind kind,
                                         std::int64_t bytes, std::int32_t gpus);

// S of one collective from what a trace states (analysis::operation_bytes); an all-gather known only by its
// input (older Kineto annotations give inputs) is the input times the group.
std::optional<std::int64_t> collective_bytes(analysis::CollectiveKind kind, std::int64_t in_bytes,
                                             std::int64_t out_bytes, std::int64_t group_size);

}  // namespace gpuprof::predict
