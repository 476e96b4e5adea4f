#include "gpuprof/predict/strategy_edits.hpp"

#include <algorithm>
#include <numeric>

namespace gpuprof::predict {
namespace {

constexpr std::int64_t kFirstBucketBytes = 1'000'000, kBucketCapBytes = 25'000'000;  // DDP's defaults
constexpr double kAssumedBackwardShare = 2.0 / 3.0;

bool is_work(const ReplayOp& op) { return op.kind == OpKind::compute; }

void split_by_ranges(const ReplayGraph& graph, std::vector<StepShape>& shapes) {
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const auto& op = graph.ops[o];
    if (op.window == kNone || !is_work(op)) continue;
    auto& shape = shapes[static_cast<std::size_t>(op.window)];
    (op.backward ? shape.backward : shape.forward).push_back(static_cast<std::int32_t>(o));
  }
}

void split_by_share(const ReplayGraph& graph, std::vector<StepShape>& shapes) {
  std::vector<std::vector<std::int32_t>> work(shapes.size());
  std::vector<double> total(shapes.size(), 0.0);
  for (std::size_t o = 0; o < graph.ops.size(); ++o) {
    const auto& op = graph.ops[o];
    if (op.window == kNone || !is_work(op)) continue;
    work[static_cast<std::size_t>(op.window)].push_back(static_cast<std::int32_t>(o));
    total[static_cast<std::size_t>(op.window)] += op.duration_ns;
  }
  for (std::size_t w = 0; w < shapes.size(); ++w) {
    double done = 0;
    for (const auto o : work[w]) {
      const bool backward = done >= (1.0 - kAssumedBackwardShare) * total[w];
      (backward ? shapes[w].backward : shapes[w].forward).push_back(o);
      done += graph.ops[static_cast<std::size_t>(o)].duration_ns;
    }
  }
}

void find_consumers(const ReplayGraph& graph, std::vector<StepShape>& shapes) {
  for (std::size_t w = 0; w < shapes.size(); ++w) {
    if (shapes[w].backward.empty()) continue;
    const auto last = static_cast<std::size_t>(shapes[w].backward.back());
    for (std::size_t o = last + 1; o < graph.ops.size(); ++o) {
      const auto& op = graph.ops[o];
      if (op.kind == OpKind::inserted || op.backward || op.stream != graph.ops[last].stream) continue;
      shapes[w].consumer = static_cast<std::int32_t>(o);  // the optimizer, or the next step's first work
      break;
    }
  }
}

// The backward op by which `share` of the step's backward work has run.
std::int32_t op_at_share(const ReplayGraph& graph, const std::vector<std::int32_t>& ops, double share) {
  double total = 0;
  for (const auto o : ops) total += graph.ops[static_cast<std::size_t>(o)].duration_ns;
  double done = 0;
  for (const auto o : ops) {
    done += graph.ops[static_cast<std::size_t>(o)].duration_ns;
    if (done >= share * total - 1e-9) return o;
  }
  return ops.back();
}

std::int32_t insert_after(ReplayGraph& graph, std::int32_t stream, std::vector<std::int32_t> inputs,
                          double duration_ns) {
  ReplayOp op;
  op.kind = OpKind::inserted;
  op.stream = stream;
  for (const auto input : inputs)
    op.start_ns = std::max(op.start_ns, graph.ops[static_cast<std::size_t>(input)].end_ns);
  op.end_ns = op.start_ns;
  op.duration_ns = duration_ns;
  op.window = graph.ops[static_cast<std::size_t>(inputs.front())].window;
  op.inputs = std::move(inputs);
  graph.ops.push_back(std::move(op));
  return static_cast<std::int32_t>(graph.ops.size() - 1);
}

void make_wait(ReplayGraph& graph, std::int32_t consumer, std::int32_t producer) {
  if (consumer != kNone) graph.ops[static_cast<std::size_t>(consumer)].inputs.push_back(producer);
}

std::vector<std::int64_t> ddp_buckets(std::int64_t bytes) {
  std::vector<std::int64_t> buckets;
  for (std::int64_t left = bytes; left > 0;) {
    const auto size = std::min(left, buckets.empty() ? kFirstBucketBytes : kBucketCapBytes);
    buckets.push_back(size), left -= size;
  }
  return buckets;
}

}  // namespace

std::vector<StepShape> step_shapes(const ReplayGraph& graph) {
  std::vector<StepShape> shapes(graph.windows.size());
  if (graph.backward_from_ranges)
    split_by_ranges(graph, shapes);
  else
    split_by_share(graph, shapes);
  find_consumers(graph, shapes);
  return shapes;
}

void scale_work(ReplayGraph& graph, double factor, bool keep_host_copies) {
  for (auto& op : graph.ops) {
    const bool host_copy = op.kind == OpKind::copy && (op.copy_kind == trace::CopyKind::host_to_device ||
                                                       op.copy_kind == trace::CopyKind::device_to_host);
    if (op.kind == OpKind::compute || (op.kind == OpKind::copy && !(keep_host_copies && host_copy)))
      op.duration_ns *= factor;
  }
}

void add_all_reduces(ReplayGraph& graph, const std::vector<StepShape>& shapes, const AllReduceCurve& curve,
                     std::int32_t gpus, std::int64_t gradient_bytes, AllReduceSchedule schedule,
                     const TransferScale& scale) {
  const auto stream = graph.add_stream();
  const auto buckets =
      schedule == AllReduceSchedule::bucketed ? ddp_buckets(gradient_bytes) : std::vector<std::int64_t>{gradient_bytes};
  for (const auto& shape : shapes) {
    if (shape.backward.empty()) continue;
    std::int64_t ready_bytes = 0;
    std::int32_t last = kNone;
    for (std::size_t b = 0; b < buckets.size(); ++b) {
      ready_bytes += buckets[b];
      const bool overlapped = b + 1 < buckets.size();
      const double share = static_cast<double>(ready_bytes) / static_cast<double>(gradient_bytes);
      const auto producer =
          schedule == AllReduceSchedule::bucketed ? op_at_share(graph, shape.backward, share) : shape.backward.back();
      const double alpha = curve.alpha_ns(gpus);
      double time = alpha + (curve.time_ns(buckets[b], gpus) - alpha) / scale.bandwidth;
      if (overlapped) time *= scale.overlapped_slowdown;
      std::vector<std::int32_t> inputs{producer};
      if (last != kNone) inputs.push_back(last);
      last = insert_after(graph, stream, inputs, time);
    }
    make_wait(graph, shape.consumer, last);
  }
}

void add_host_staging(ReplayGraph& graph, const std::vector<StepShape>& shapes, const LinkProfile& link,
                      std::int32_t gpus, std::int64_t gradient_bytes, const TransferScale& scale) {
  if (gpus <= 1) return;
  const auto stream = graph.add_stream();
  const double one_way =
      link.host_latency_ns + static_cast<double>(gradient_bytes) / (link.host_gbps * scale.bandwidth);
  for (const auto& shape : shapes) {
    if (shape.backward.empty()) continue;
    const double copies = scale.parallel_host_copies ? 2.0 : 2.0 * gpus;
    const auto staged = insert_after(graph, stream, {shape.backward.back()}, copies * one_way);
    make_wait(graph, shape.consumer, staged);
  }
}

void add_sync_transfer(ReplayGraph& graph, const std::vector<StepShape>& shapes, double time_ns,
                       bool during_backward) {
  if (time_ns <= 0) return;
  const auto stream = graph.add_stream();
  for (const auto& shape : shapes) {
    if (shape.backward.empty()) continue;
    const auto start = during_backward ? shape.backward.front() : shape.backward.back();
    make_wait(graph, shape.consumer, insert_after(graph, stream, {start}, time_ns));
  }
}

void add_split_copies(ReplayGraph& graph, const std::vector<StepShape>& shapes, const LinkProfile& link,
                      std::int32_t gpus, std::int64_t split_bytes, const TransferScale& scale) {
  if (gpus <= 1) return;
  const auto stream = graph.add_stream();
  const double copy = link.peer_latency_ns + static_cast<double>(split_bytes) / (link.peer_gbps * scale.bandwidth);
  for (const auto& shape : shapes) {
    for (const auto* part : {&shape.forward, &shape.backward}) {
      if (part->empty()) continue;
      for (std::int32_t split = 1; split < gpus; ++split) {
        const double share = static_cast<double>(split) / static_cast<double>(gpus);
        const auto producer = op_at_share(graph, *part, share);
        const auto copied = insert_after(graph, stream, {producer}, copy);
        // The work after the split runs on the other GPU and needs the copied tensor first.
        const auto next = std::find(part->begin(), part->end(), producer) + 1;
        const auto after_part = part == &shape.backward  ? shape.consumer
                                : shape.backward.empty() ? kNone
                                                         : shape.backward.front();
        make_wait(graph, next != part->end() ? *next : after_part, copied);
      }
    }
  }
}

}  // namespace gpuprof::predict
