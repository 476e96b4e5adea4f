#pragma once

// How N data-parallel replicas exchange their gradients, and what that costs per step on a machine whose
// links are known (link_profile.hpp) and, optionally, whose topology is (gpu_topology.hpp). Pure functions:
// the edits put the result into the replay (strategy_edits.hpp).
//   ring-allreduce: NCCL's ring (PyTorch DDP, Horovod, TF replicated with NCCL): the all-reduce curve, its
//                   bandwidth bound by the slowest hop between the N GPUs;
//   ps-cpu:         variables on the CPU (TF parameter server on the CPU, Keras make_parallel and
//                   multi_gpu_model with the model on the CPU): each GPU sends its gradients down and reads the
//                   parameters back over its own host link, all at once unless they share it;
//   ps-gpu:         variables on GPU 0 (make_parallel with the parameter server on a GPU, TF's default
//                   device): the N-1 other GPUs' gradients in and parameters out all pass GPU 0's link, so the
//                   time grows with N.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/predict/gpu_topology.hpp"
#include "gpuprof/predict/link_profile.hpp"

namespace gpuprof::predict {

enum class SyncStrategy { ring_allreduce, ps_cpu, ps_gpu };

std::string_view to_string(SyncStrategy sync);
std::vector<std::string> sync_names();
// Throws TraceError::bad_input naming `option` for an unknown name.
SyncStrategy parse_sync(const std::string& name, const std::string& option);

// The GPU-to-GPU copy bandwidth over a path: the link's near figure within one switch, its far figure
// (across switches, the host bridge or sockets) beyond. Without peer access both are copies staged
// through host memory, as measured.
double peer_gbps_over(const LinkProfile& link, PathKind path);

// One parameter-server exchange per step (ps-cpu or ps-gpu; 0 for ring-allreduce and N = 1):
// `bytes` of gradients one way per GPU, parameters of the same size back. `path`: the farthest path
// between the N GPUs. `one_after_another` (ps-cpu): the GPUs' host copies share one path instead of
// running at once on their own links (a shared switch uplink, root complex or host thread).
double parameter_server_ns(SyncStrategy sync, const LinkProfile& link, std::int32_t gpus, std::int64_t bytes,
                           PathKind path, bool one_after_another);

// The ring all-reduce's bandwidth over `path` relative to the link's curve (measured between near GPUs):
// at most 1, below it where the ring crosses a slower hop.
double ring_bandwidth_share(const LinkProfile& link, PathKind path);

}  // namespace gpuprof::predict
