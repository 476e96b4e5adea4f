#include <algorithm>
#include <numeric>
#include <set>

#include "replay_graph_parts.hpp"

namespace gpuprof::predict {
namespace {

// A call this long that returned right after some GPU work ended was waiting for it
// (a synchronize, a blocking copy, a launch into a full queue).
constexpr std::int64_t kBlockingCallNs = 20'000;
constexpr std::int64_t kReturnSlackNs = 20'000;

struct RawCall {
  std::int64_t thread, start, end;
  std::int64_t api_row;  // -1 for sync rows
};

std::vector<RawCall> calls_of_launching_threads(const trace::TraceModel& model, const ReplayGraph& graph) {
  std::set<std::int64_t> threads;
  for (const auto& op : graph.ops)
    if (op.launch != kNone) threads.insert(model.api_calls.thread_id[static_cast<std::size_t>(op.launch)]);
  std::vector<RawCall> calls;
  const auto& api = model.api_calls;
  for (std::size_t i = 0; i < api.size(); ++i)
    if (threads.contains(api.thread_id[i]))
      calls.push_back(
          {api.thread_id[i], api.start_ns[i], std::max(api.start_ns[i], api.end_ns[i]), static_cast<std::int64_t>(i)});
  const auto& syncs = model.syncs;
  for (std::size_t i = 0; i < syncs.size(); ++i)
    if (threads.contains(syncs.thread_id[i]))
      calls.push_back({syncs.thread_id[i], syncs.start_ns[i], std::max(syncs.start_ns[i], syncs.end_ns[i]), -1});
  std::sort(calls.begin(), calls.end(), [](const auto& a, const auto& b) {
    return a.thread != b.thread ? a.thread < b.thread : a.start != b.start ? a.start < b.start : a.end > b.end;
  });
  return calls;
}

// Calls nested in (or overlapping) an earlier call of the same thread are part of it: a thread does one
// thing at a time, so the outer call's span is what the replay keeps.
void merge_calls(const std::vector<RawCall>& raw, std::size_t api_rows, ReplayGraph& graph,
                 std::vector<std::int32_t>& call_of_api) {
  call_of_api.assign(api_rows, kNone);
  for (const auto& call : raw) {
    auto& calls = graph.calls;
    if (calls.empty() || calls.back().thread != call.thread || call.start >= calls.back().end_ns) {
      calls.push_back({call.thread, call.start, call.end, kNone});
    } else {
      calls.back().end_ns = std::max(calls.back().end_ns, call.end);
    }
    if (call.api_row >= 0)
      call_of_api[static_cast<std::size_t>(call.api_row)] = static_cast<std::int32_t>(calls.size() - 1);
  }
}

void find_awaited_work(ReplayGraph& graph) {
  std::vector<std::int32_t> by_end(graph.ops.size());
  std::iota(by_end.begin(), by_end.end(), 0);
  std::sort(by_end.begin(), by_end.end(), [&](auto a, auto b) { return graph.ops[a].end_ns < graph.ops[b].end_ns; });
  for (std::size_t c = 0; c < graph.calls.size(); ++c) {
    auto& call = graph.calls[c];
    if (call.end_ns - call.start_ns < kBlockingCallNs) continue;
    auto it = std::upper_bound(by_end.begin(), by_end.end(), call.end_ns,
                               [&](std::int64_t t, std::int32_t op) { return t < graph.ops[op].end_ns; });
    while (it != by_end.begin()) {
      const auto& op = graph.ops[*--it];
      if (op.end_ns <= call.start_ns || call.end_ns - op.end_ns > kReturnSlackNs) break;
      // Work launched later by another thread cannot be what this call waited for.
      const bool launched_before =
          op.launch == kNone ? op.start_ns < call.end_ns : graph.calls[op.launch].start_ns <= call.start_ns;
      if (launched_before) {
        call.awaits = *it;
        break;
      }
    }
  }
}

// A copy from or to pageable memory blocks its call until the stream reaches the copy: the call is still
// running when its own copy starts, later than a launch takes. That wait shrinks with the GPU's work.
void find_copy_waits(ReplayGraph& graph) {
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const auto& op = graph.ops[o];
    if (op.kind != OpKind::copy || op.launch == kNone) continue;
    auto& call = graph.calls[static_cast<std::size_t>(op.launch)];
    if (call.awaits != kNone || call.end_ns - call.start_ns < kBlockingCallNs) continue;
    if (op.start_ns - call.start_ns < kBlockingCallNs || op.start_ns >= call.end_ns) continue;
    // A call that returned with its copy done waited for all of it (the copy scales with the batch, so the
    // wait does too); one that returned while the copy ran waited for its start.
    call.awaits = static_cast<std::int32_t>(o), call.copy_wait = true;
    call.awaits_start = call.end_ns < op.end_ns - kReturnSlackNs;
  }
}

}  // namespace

void collect_host_calls(const trace::TraceModel& model, const analysis::CorrelationIndex&, ReplayGraph& graph) {
  std::vector<std::int32_t> call_of_api;
  merge_calls(calls_of_launching_threads(model, graph), model.api_calls.size(), graph, call_of_api);
  for (auto& op : graph.ops)
    if (op.launch != kNone) op.launch = call_of_api[static_cast<std::size_t>(op.launch)];
  find_awaited_work(graph);
  find_copy_waits(graph);
}

}  // namespace gpuprof::predict
