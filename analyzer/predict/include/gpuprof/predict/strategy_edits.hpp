#pragma once

// Edits of a replay graph that turn one GPU's steps into one replica's steps on
// N GPUs (DESIGN.md, "Prediction"): shorter per-GPU work, gradient all-reduces
// in buckets that start when their last gradient is ready, copies through the
// host or between GPUs, each with the dependency that makes later work wait.

#include <cstdint>
#include <vector>

#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/replay_graph.hpp"

namespace gpuprof::predict {

enum class Strategy { data_parallel, host_staged, placement };
// PyTorch DDP: buckets in reverse parameter order, the first 1 MB, then 25 MB, overlapping backward.
// Keras / TensorFlow 1.x strategies: one all-reduce of every gradient after backward.
enum class AllReduceSchedule { bucketed, after_backward };

// Per window: the backward work in order and the first work after it (which consumes the gradients).
struct StepShape {
  std::vector<std::int32_t> forward, backward;
  std::int32_t consumer = kNone;
};
// Without ranges named like "backward", the last two thirds of each step's computation (by time) are
// taken as backward (the usual 2:1 backward:forward cost).
std::vector<StepShape> step_shapes(const ReplayGraph& graph);

// Multiplies the duration of computation and copies (not collectives already there) by `factor`;
// `keep_host_copies` leaves host<->device copies as they are (host-staged inputs are split but serialized).
void scale_work(ReplayGraph& graph, double factor, bool keep_host_copies);

// What the band's ends change in the inserted transfers (docs/predict.md, "Band"): `bandwidth` divides the
// transfer part, `overlapped_slowdown` lengthens collectives that overlap backward (contention), and
// `parallel_host_copies` lets each GPU's host-staged copies run on its own PCIe link at once instead of
// one GPU after another.
struct TransferScale {
  double bandwidth = 1.0;
  double overlapped_slowdown = 1.0;
  bool parallel_host_copies = false;
};

void add_all_reduces(ReplayGraph& graph, const std::vector<StepShape>& shapes, const AllReduceCurve& curve,
                     std::int32_t gpus, std::int64_t gradient_bytes, AllReduceSchedule schedule,
                     const TransferScale& scale);
// Host-staged (Keras multi_gpu_model, make_parallel): each GPU's gradients down to the host and the
// updated weights back up, one GPU after another (or all at once, `scale.parallel_host_copies`), after backward.
void add_host_staging(ReplayGraph& graph, const std::vector<StepShape>& shapes, const LinkProfile& link,
                      std::int32_t gpus, std::int64_t gradient_bytes, const TransferScale& scale);
// A synchronisation of `time_ns` per step after backward (a parameter-server exchange, sync_model.hpp)
// that the gradients' consumer waits for. `during_backward`: it starts with backward instead (the band's fast
// end): the gradients go to the server while backward produces them and the parameters come back while the
// next forward reads them layer by layer (TF reads a variable when an op needs it), so up to the whole exchange
// hides behind the computation; one transfer from the start of backward stands for both. nvprof shows Keras's
// peer copies to a parameter server on a GPU running beside the computation (keras-tensorflow.md).
void add_sync_transfer(ReplayGraph& graph, const std::vector<StepShape>& shapes, double time_ns,
                       bool during_backward = false);
// Placement: N-1 split points; at each, the activations forward and their gradients backward cross
// between GPUs (peer-to-peer, or staged through the host), and the next work waits for them.
void add_split_copies(ReplayGraph& graph, const std::vector<StepShape>& shapes, const LinkProfile& link,
                      std::int32_t gpus, std::int64_t split_bytes, const TransferScale& scale);

}  // namespace gpuprof::predict
