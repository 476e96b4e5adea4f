#pragma once

// Inputs a prediction refuses, with one line, rather than answering with a
// confident number from them (issue 37): a warm-up that leaves no steady step,
// a multi-GPU trace taken as the 1-GPU run, a second trace of another program,
// and byte counts no model trained on that GPU can have.

#include <cstdint>
#include <string>

#include "gpuprof/predict/replay_graph.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

// Where a demangled kernel name's trailing argument list starts ("ns::(anonymous namespace)::k(float*)" → the
// '(' before "float*"); the name's size when it has none.
std::size_t argument_list_start(std::string_view name);

// Throws TraceError::bad_input naming the trace when every step window is warm-up.
void check_steady_steps(const ReplayGraph& graph, std::int64_t warmup_steps);

// Throws TraceError::bad_input naming the trace when it has communication kernels, collectives, work on
// several GPUs or a world size above 1, unless `accepted` (the user said it is meant: `--multi-gpu-input`).
void check_one_gpu_trace(const trace::TraceModel& model, const ReplayGraph& graph, bool accepted);

// The share of `a`'s kernel time (on its replayed GPU) spent in kernels that `b` also runs, names compared
// without their arguments and digits (tile sizes, template numbers change with the batch).
double shared_kernel_time(const trace::TraceModel& a, const ReplayGraph& graph_a, const trace::TraceModel& b,
                          const ReplayGraph& graph_b);
// Throws TraceError::bad_input naming the second trace when either trace spends less than half its kernel
// time in kernels the other runs: not the same program at another batch.
void check_same_program(const trace::TraceModel& one, const ReplayGraph& graph_one, const trace::TraceModel& two,
                        const ReplayGraph& graph_two);

// The most bytes a model trained on the trace's replayed GPU can move per step: its memory (the 1-GPU run
// held the model, its gradients and activations), else kMaxGpuMemoryBytes.
inline constexpr std::int64_t kMaxGpuMemoryBytes = std::int64_t{1} << 40;  // 1 TiB: above any GPU made
std::int64_t memory_bound(const trace::TraceModel& model, const ReplayGraph& graph);
// Throws TraceError::bad_input naming the trace when `bytes` exceed memory_bound (a typo, not a model).
void check_bytes_fit(const trace::TraceModel& model, const ReplayGraph& graph, std::int64_t bytes,
                     const std::string& what);

}  // namespace gpuprof::predict
