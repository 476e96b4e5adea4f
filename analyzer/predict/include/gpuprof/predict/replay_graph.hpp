#pragma once

// The steps of one GPU of a trace as a graph the replay can run and the
// prediction can edit (DESIGN.md, "Prediction", Replay): the GPU's work per
// stream in order, each piece tied to the host call that launched it with its
// measured launch latency, the waits that the trace shows only by their effect
// (a piece that started when work on another stream ended), and the host
// threads' calls with the GPU work each blocking call waited for.

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

enum class OpKind : std::uint8_t { compute, communication, copy, inserted };

inline constexpr std::int32_t kNone = -1;

struct ReplayOp {
  OpKind kind = OpKind::compute;
  std::int32_t stream = 0;                // dense index into ReplayGraph::stream_ids (inserted ops get their own)
  std::int64_t start_ns = 0, end_ns = 0;  // as recorded; inserted ops: when their inputs were ready
  double duration_ns = 0;                 // what the replay uses; edits change it
  std::int32_t launch = kNone;            // host call that launched it
  double launch_latency_ns = 0;           // from the call's start to the earliest start
  std::int32_t after = kNone;             // work on another stream it waited for (or its stream predecessor)
  double after_lag_ns = 0;
  // Edits: the op ends no earlier than this (graph time): a collective's kernel runs from its own arrival
  // until its last partner has arrived and the data has moved.
  double earliest_end_ns = -std::numeric_limits<double>::infinity();
  std::vector<std::int32_t> inputs;  // edits: ops that must end before it starts
  std::int32_t window = kNone;       // step window (index into ReplayGraph::windows), by recorded start
  bool backward = false;             // launched inside a host range named like "backward"
  std::int64_t bytes = 0;            // copies
  std::int64_t correlation_id = trace::kUnknown;  // recorded work: its correlation id, to find its collective
  trace::CopyKind copy_kind = trace::CopyKind::unknown;
};

struct HostCall {
  std::int64_t thread = 0;
  std::int64_t start_ns = 0, end_ns = 0;
  std::int32_t awaits = kNone;  // the GPU work a blocking call returned after
  // A copy call (pageable memory) that waited for its stream to reach the copy: time blocked on the GPU, not
  // host work. It returns relative to the copy's end when it returned with the copy done, else to its start.
  bool copy_wait = false, awaits_start = false;
};

struct ReplayGraph {
  std::string path;
  std::int32_t device = 0;
  std::int64_t origin_ns = 0;  // every time below is relative to this trace time
  std::vector<std::int64_t> stream_ids;
  std::vector<ReplayOp> ops;               // sorted by recorded start
  std::vector<HostCall> calls;             // per thread in start order, threads one after another
  std::vector<analysis::GpuStep> windows;  // the device's step windows, from the analysis
  double median_launch_latency_ns = 0;
  bool backward_from_ranges = false;  // false: no range named like "backward" was found
  std::int32_t devices_with_work = 1;  // GPUs of the trace with any work: more than one is not a 1-GPU run
  std::vector<std::string> notices;

  std::int32_t add_stream();  // a new stream for inserted work
};

// The GPU with the most work that has steps; throws TraceError::bad_input for a trace without GPU work
// or without steps (naming the file and the step pattern).
ReplayGraph build_replay_graph(const trace::TraceModel& model, const analysis::AnalysisOptions& options);

}  // namespace gpuprof::predict
