#include "gpuprof/predict/prediction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "gpuprof/predict/replay.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/units.hpp"
#include "gpuprof/predict/link_choice.hpp"
#include "gpuprof/predict/sample_statistics.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "input_checks.hpp"
#include "trace_facts.hpp"

namespace gpuprof::predict {
namespace {

// Measured slowdown of DDP's overlapped all-reduce on A100 (1.38-1.48x): the band's high end.
constexpr double kContention = 1.4;

struct Inputs {
  const trace::TraceModel* model;
  ReplayGraph graph;    // the 1-GPU trace
  ReplayGraph per_gpu;  // the replica's work: the per-GPU-batch trace, else the 1-GPU trace
  bool second_trace = false;
};

GradientSize gradient_size(const trace::TraceModel& model, const ReplayGraph& graph, const PredictOptions& options) {
  if (const auto from_trace = gradient_size_from_trace(model)) return *from_trace;
  if (options.gradient_bytes) return {*options.gradient_bytes, "--" + options.option_prefix + "grad-bytes"};
  if (options.strategy == Strategy::placement) return {0, "not needed for placement"};
  if (options.accept_multi_gpu_trace)
    if (const auto from_all_reduces = gradient_size_from_all_reduces(model, graph)) return *from_all_reduces;
  if (const auto from_optimizer = gradient_size_from_optimizer(model, graph)) return *from_optimizer;
  throw TraceError::bad_input(
      model.path, fmt::format("no gradient size: the trace states neither gradient_bytes nor parameter_count and has "
                              "no optimizer kernel that sizes it; give --{}grad-bytes (in PyTorch: sum(p.numel() * "
                              "p.element_size() for p in model.parameters() if p.requires_grad))",
                              options.option_prefix));
}

// One replica's step with every edit of the strategy, at one end of the band.
struct Stages {
  double work = 0, collectives = 0, copies = 0;  // replayed step after each edit
};

// What the strategy's edits insert, as the step timeline labels their streams.
std::string inserted_label(Strategy strategy) {
  switch (strategy) {
    case Strategy::data_parallel:
      return "all-reduces (inserted)";
    case Strategy::host_staged:
      return "host-staged copies (inserted)";
    case Strategy::placement:
      return "split-point copies (inserted)";
  }
  return "inserted";
}

// How one replay synchronises the replicas: the strategy, the farthest path between the N GPUs, and whether a
// parameter server on the CPU takes the GPUs one after another (the band's slow end).
struct SyncChoice {
  SyncStrategy strategy = SyncStrategy::ring_allreduce;
  PathKind path = PathKind::pix;
  bool one_after_another = false;
  // The band's fast end: gradients exchanged while backward produces them (a ring in buckets, a parameter
  // server's copies from the start of backward), whatever the schedule the centre assumes.
  bool during_backward = false;
};

// The links' copy bandwidths times `factor` (the band's faster or slower source).
LinkProfile copies_scaled(const LinkProfile& link, double factor) {
  LinkProfile scaled;
  scaled.host_gbps = link.host_gbps * factor, scaled.host_latency_ns = link.host_latency_ns;
  scaled.peer_gbps = link.peer_gbps * factor, scaled.peer_latency_ns = link.peer_latency_ns;
  scaled.far_peer_gbps = link.far_peer_gbps * factor, scaled.peer_access = link.peer_access;
  return scaled;
}

void add_synchronisation(ReplayGraph& graph, const std::vector<StepShape>& shapes, const PredictOptions& options,
                         std::int32_t gpus, std::int64_t bytes, TransferScale scale, AllReduceSchedule schedule,
                         const SyncChoice& sync) {
  if (gpus <= 1) return;
  if (sync.strategy == SyncStrategy::ring_allreduce) {
    scale.bandwidth *= ring_bandwidth_share(options.link, sync.path);  // the ring is as fast as its slowest hop
    add_all_reduces(graph, shapes, options.link.curve(), gpus, bytes,
                    sync.during_backward ? AllReduceSchedule::bucketed : schedule, scale);
    return;
  }
  const auto link = copies_scaled(options.link, scale.bandwidth);
  add_sync_transfer(graph, shapes,
                    parameter_server_ns(sync.strategy, link, gpus, bytes, sync.path, sync.one_after_another),
                    sync.during_backward);
}

// `timeline`, when given, receives the first steady step of the last replay.
Stages replay_stages(const Inputs& inputs, const PredictOptions& options, std::int32_t gpus, std::int64_t bytes,
                     const TransferScale& scale, AllReduceSchedule schedule, const SyncChoice& sync,
                     StepTimeline* timeline = nullptr) {
  auto graph = inputs.per_gpu;
  const bool split_batch =
      options.scaling == Scaling::strong && !inputs.second_trace && options.strategy != Strategy::placement;
  if (split_batch) scale_work(graph, 1.0 / gpus, options.strategy == Strategy::host_staged);
  Stages stages;
  stages.work = steady_step_period(graph, replay(graph)).mean_ns;
  const auto shapes = step_shapes(graph);
  if (options.strategy == Strategy::data_parallel)
    add_synchronisation(graph, shapes, options, gpus, bytes, scale, schedule, sync);
  stages.collectives = steady_step_period(graph, replay(graph)).mean_ns;
  if (options.strategy == Strategy::host_staged) add_host_staging(graph, shapes, options.link, gpus, bytes, scale);
  if (options.strategy == Strategy::placement)
    add_split_copies(graph, shapes, options.link, gpus, *options.split_bytes, scale);
  const auto times = replay(graph);
  stages.copies = steady_step_period(graph, times).mean_ns;
  if (timeline) *timeline = step_timeline(graph, times, inserted_label(options.strategy));
  return stages;
}

// The synchronisation at the centre and at the band's slow end. Without --topology the centre assumes the N GPUs
// behind one switch and the slow end the farthest path; without --sync the centre is a ring all-reduce and, on
// links without peer access (where frameworks of the parameter-server kind are common and the trace cannot tell),
// the slow end is the slowest of the strategies.
SyncChoice centre_sync(const PredictOptions& options, std::int32_t gpus) {
  return {options.sync.value_or(SyncStrategy::ring_allreduce),
          options.topology ? options.topology->farthest(gpus) : PathKind::pix, false};
}

// The fast end: the centre's synchronisation, overlapping backward. A 1-GPU trace does not show when a
// framework sends each gradient: TF 1.x's dataflow sends each as it is ready, and nvprof shows Keras's copies to
// a parameter server on a GPU running beside the computation (keras-tensorflow.md, 7gforce).
SyncChoice fast_end_sync(const PredictOptions& options, std::int32_t gpus) {
  auto sync = centre_sync(options, gpus);
  sync.during_backward = true;
  return sync;
}

// Where a framework may well keep its variables on a parameter server: links without peer access, and any
// PCIe-only box (Keras and TF 1.x workstations, peer access or not: Rossum's 7gforce, a P2P machine, ran them).
bool parameter_servers_plausible(const LinkProfile& link) { return !link.peer_access || link.over_pcie; }

std::vector<SyncChoice> slow_end_syncs(const PredictOptions& options, std::int32_t gpus) {
  const auto path = options.topology ? options.topology->farthest(gpus) : PathKind::sys;
  if (options.sync) return {{*options.sync, path, true}};
  if (options.strategy != Strategy::data_parallel || !parameter_servers_plausible(options.link))
    return {{SyncStrategy::ring_allreduce, path, true}};
  return {{SyncStrategy::ring_allreduce, path, true}, {SyncStrategy::ps_cpu, path, true},
          {SyncStrategy::ps_gpu, path, true}};
}

// Beside an uncertain call: the centre's side of one GPU, named as the estimate it is (verdict_lean.hpp).
std::string lean_words(const GpuCountPrediction& row, const Prediction& prediction) {
  if (row.lean == Lean::too_close)
    return fmt::format("and its centre is within the 1-GPU step's variability ({:.1f} %) of one GPU: too close to call",
                       100 * prediction.step_variability);
  return fmt::format("its centre leans {}", to_string(row.lean));
}

std::string verdict(const GpuCountPrediction& row, const Prediction& prediction) {
  const Term* cost = nullptr;
  const Term* saved = nullptr;
  for (const auto& term : row.terms) {
    if (term.ns > 0 && (!cost || term.ns > cost->ns)) cost = &term;
    if (term.ns < 0 && (!saved || term.ns < saved->ns)) saved = &term;
  }
  const bool weak = prediction.scaling == Scaling::weak;
  // A split model is one model on N GPUs: its step and its throughput, under either scaling.
  if (prediction.strategy == Strategy::placement)
    return fmt::format("{} GPUs, one model split across them: step {}, {:.2f}x the 1-GPU throughput{}", row.gpus,
                       units::format_duration(static_cast<std::int64_t>(row.step_ns)), row.speedup,
                       cost ? fmt::format("; the largest cost is {} ({} per step)", cost->name,
                                          units::format_duration(static_cast<std::int64_t>(cost->ns)))
                            : std::string());
  auto sentence =
      fmt::format("{} GPUs: {:.2f}x {} ({:.0f} % efficiency)", row.gpus, row.speedup,
                  weak ? "the 1-GPU throughput" : (row.speedup >= 1.0 ? "faster" : "slower"), 100.0 * row.efficiency);
  // The band straddles one GPU's throughput: the trace cannot decide whether N GPUs are faster.
  if (row.call == Call::uncertain)
    sentence += fmt::format("; uncertain whether faster than one GPU: the band spans {:.2f}x to {:.2f}x, {}",
                            row.slow_end_speedup, row.fast_end_speedup, lean_words(row, prediction));
  // Weak scaling keeps every replica's work: nothing is saved, so the sentence names the largest cost.
  if (weak) saved = nullptr;
  if (cost && saved)
    sentence += fmt::format("; {} ({} per step) {} the work saved ({})", cost->name,
                            units::format_duration(static_cast<std::int64_t>(cost->ns)),
                            cost->ns > -saved->ns ? "exceeds" : "is less than",
                            units::format_duration(static_cast<std::int64_t>(-saved->ns)));
  else if (cost)
    sentence += fmt::format("; the largest cost is {} ({} per step)", cost->name,
                            units::format_duration(static_cast<std::int64_t>(cost->ns)));
  return sentence;
}

GpuCountPrediction predict_count(const Inputs& inputs, const PredictOptions& options, const Prediction& prediction,
                                 std::int32_t gpus) {
  GpuCountPrediction row;
  const auto nominal = replay_stages(inputs, options, gpus, prediction.gradient_bytes, {}, options.schedule,
                                     centre_sync(options, gpus), options.step_timelines ? &row.replayed_step : nullptr);
  // A split model has no replicas to wait for.
  const bool replicas = options.strategy != Strategy::placement;
  const double spread = options.stated_step_spread ? *options.stated_step_spread * prediction.measured_step_ns
                                                   : step_spread_ns(inputs.graph);
  const double sqrt_2_ln_n = std::sqrt(2.0 * std::log(gpus));
  const double measured_sync = gpus > 1 && replicas ? spread * sqrt_2_ln_n : 0.0;
  // What the bucketed schedule hides behind backward: published runs expose a share of it (centre_loss.hpp).
  const bool overlapped = options.strategy == Strategy::data_parallel && gpus > 1 &&
                          options.schedule == AllReduceSchedule::bucketed;
  const double unhidden = overlapped ? replay_stages(inputs, options, gpus, prediction.gradient_bytes, {},
                                                    AllReduceSchedule::after_backward, centre_sync(options, gpus))
                                           .copies
                                     : nominal.copies;
  row.centre = {nominal.copies, std::max(0.0, unhidden - nominal.copies), measured_sync,
                gpus > 1 && replicas ? sqrt_2_ln_n * nominal.copies : 0.0};
  const auto loss = options.centre_loss.value_or(kPublishedCentreLoss);
  const double sync = row.centre.sync_ns(loss);
  row.gpus = gpus;
  row.step_ns = row.centre.at(loss);
  const auto copy_name = options.strategy == Strategy::host_staged ? "host-staged gradient and weight copies"
                                                                   : "peer copies at the split points";
  // Weak scaling keeps the work: the term is then only the replay's difference from the measured step.
  row.terms = {{options.scaling == Scaling::weak || !replicas ? "the replayed 1-GPU step against the measured one"
                                                 : "per-GPU work saved",
                nominal.work - prediction.measured_step_ns}};
  // Each strategy shows the terms it can have; the sum stays exact since the others are 0.
  if (options.strategy == Strategy::data_parallel)
    row.terms.push_back({centre_sync(options, gpus).strategy == SyncStrategy::ring_allreduce
                             ? "exposed all-reduce over " + options.link.name
                             : fmt::format("parameter-server exchange ({}) over {}", to_string(*options.sync),
                                           options.link.name),
                         nominal.collectives - nominal.work + row.centre.exposed_ns(loss)});
  else
    row.terms.push_back({copy_name, nominal.copies - nominal.collectives});
  row.terms.push_back({"synchronization (waiting for the slowest replica)", sync});
  row.terms.push_back({"host pipeline shared by the replicas (see the warning)", 0.0});
  std::stable_sort(row.terms.begin(), row.terms.end(),
                   [](const auto& a, const auto& b) { return std::abs(a.ns) > std::abs(b.ns); });
  // The band (docs/predict.md, "Band"): each uncertain term at its low and its high end.
  // Low: the link's faster source, no contention, host copies of the GPUs at once, and replicas whose
  // jitter is correlated (identical work in lockstep), so none waits for a slower one.
  const auto low = replay_stages(inputs, options, gpus, prediction.gradient_bytes,
                                 {options.link.faster, 1.0, true}, options.schedule, fast_end_sync(options, gpus));
  // High: the slower source, contention on overlapped all-reduces, and no overlap at all: a 1-GPU trace does
  // not show when each gradient is ready, and the bucketed schedule assumes they come in proportion to the
  // backward work (large late parameters, fusion cycles and older strategies reduce after backward).
  // Each synchronisation the trace cannot rule out, the slowest of them.
  Stages high;
  for (const auto& choice : slow_end_syncs(options, gpus)) {
    const auto end = replay_stages(inputs, options, gpus, prediction.gradient_bytes,
                                   {options.link.slower, kContention}, AllReduceSchedule::after_backward, choice);
    if (end.copies > high.copies) high = end;
  }
  row.low_ns = std::min(row.step_ns, low.copies);
  // Beyond the measured spread, N replicas lose what one GPU does not show; published runs give its size.
  row.band_high = {row.step_ns, high.copies, measured_sync, row.centre.loss_unit_ns};
  row.high_ns = row.band_high.at(replica_loss_for(options.link.over_pcie));
  // Weak scaling: each replica does the 1-GPU step's work, so the gain is the replay's own 1-GPU step against
  // the edited one (the replay's error cancels; the edits only add time, so efficiency stays at most 100 %).
  // Placement runs one model, not N replicas: its throughput is its step's, under either scaling.
  const bool keeps_work = options.scaling == Scaling::weak || !replicas;
  const double per_step_gain = (keeps_work ? nominal.work : prediction.measured_step_ns) / row.step_ns;
  row.speedup = replicas && options.scaling == Scaling::weak ? gpus * per_step_gain : per_step_gain;
  row.efficiency = row.speedup / gpus;
  // The speedup scales as 1 / step: the band's slow end gives the least, its fast end the most.
  row.slow_end_speedup = row.speedup * row.step_ns / row.high_ns;
  row.fast_end_speedup = row.speedup * row.step_ns / row.low_ns;
  // One GPU is the reference itself: no faster, whatever rounding puts its band's ends at.
  row.call = gpus <= 1                     ? Call::no_faster
             : row.slow_end_speedup > 1.0  ? Call::faster
             : row.fast_end_speedup <= 1.0 ? Call::no_faster
                                           : Call::uncertain;
  row.lean = lean_of(row.speedup, prediction.step_variability);
  if (options.scaling == Scaling::weak && row.efficiency > 1.0 + 1e-9)
    throw TraceError::bad_input(prediction.trace,
                                fmt::format("the replay of {} GPUs came out faster than one GPU under weak scaling "
                                            "({:.1f} % efficiency): no result is given for an impossible figure",
                                            gpus, 100 * row.efficiency));
  row.verdict = verdict(row, prediction);
  return row;
}

// What the band's ends assume, for the strategy at hand (docs/predict.md, "Band").
std::string band_note(const PredictOptions& options) {
  std::string low = fmt::format("the link {:.2f}x faster", options.link.faster);
  std::string high = fmt::format("the link {:.2f}x slower", 1.0 / options.link.slower);
  if (options.strategy == Strategy::data_parallel)
    high += fmt::format(", overlapped all-reduces {:.1f}x slower (contention) and no all-reduce overlapping backward "
                        "(the trace does not show when each gradient is ready)",
                        kContention);
  if (options.strategy == Strategy::data_parallel)
    low += ", gradients exchanged while backward produces them (the trace does not show when the framework sends them)";
  if (options.strategy == Strategy::host_staged) low += ", each GPU's host copies on its own PCIe link at once";
  if (options.strategy != Strategy::placement)
    low += ", replicas in lockstep (no wait for a slower one)",
        high += fmt::format(", waiting for the slowest replica: the measured step spread or, if larger, the {:.1f} % "
                            "of the step × √(2 ln N) that {} lose beyond this model (stragglers, a shared input "
                            "pipeline)",
                            100 * replica_loss_for(options.link.over_pcie),
                            options.link.over_pcie ? "multi-GPU runs on PCIe machines" : "published 8-GPU runs");
  return fmt::format("band: low end {}; high end {}", low, high);
}

// Which synchronisation the centre assumes and what the band covers (data-parallel only).
std::string sync_note(const PredictOptions& options) {
  const auto topology = options.topology
                            ? fmt::format("topology {} (GPUs 0 to N-1)", options.topology->source)
                            : std::string("no --topology: the centre assumes the N GPUs behind one switch, the high "
                                          "end the farthest path");
  if (options.sync)
    return fmt::format("synchronisation {} (--sync); {}{}", to_string(*options.sync), topology,
                       *options.sync == SyncStrategy::ps_cpu ? "; high end: the GPUs' host copies one after another"
                                                             : "");
  if (!parameter_servers_plausible(options.link))
    return fmt::format("synchronisation: ring all-reduce assumed (NCCL: PyTorch DDP, Horovod); the trace cannot tell "
                       "the framework's strategy: give --sync if it uses a parameter server; {}",
                       topology);
  return fmt::format("synchronisation: ring all-reduce at the centre; the trace cannot tell the framework's strategy, "
                     "and on PCIe machines or without peer access parameter servers are common, so the high end covers ps-cpu (host "
                     "copies one after another) and ps-gpu (every GPU through GPU 0's link): give --sync to choose; {}",
                     topology);
}

// What the centre adds to the replay from published runs (centre_loss.hpp), where it adds anything.
std::optional<std::string> centre_note(const PredictOptions& options) {
  if (options.strategy == Strategy::placement) return std::nullopt;
  const auto loss = options.centre_loss.value_or(kPublishedCentreLoss);
  std::string added;
  if (options.strategy == Strategy::data_parallel && options.schedule == AllReduceSchedule::bucketed &&
      loss.exposed_share > 0)
    added = fmt::format("{:.0f} % of the all-reduce time the bucketed schedule hides behind backward", 100 * loss.exposed_share);
  if (loss.replica_loss > 0)
    added += fmt::format("{}a replica loss of {:.2f} % of the step × √(2 ln N) where it exceeds the measured spread",
                         added.empty() ? "" : " and ", 100 * loss.replica_loss);
  if (added.empty()) return std::nullopt;
  return fmt::format("centre: the replay plus {}, fitted to what published 8-GPU runs lose beyond the replay "
                     "(docs/predict.md, \"Centre\")",
                     added);
}

// The prediction once the inputs are checked and the link is known.
Prediction predict_resolved(const Inputs& inputs, const std::vector<const trace::TraceModel*>& models,
                            const PredictOptions& options, const std::vector<std::string>& link_notes);

}  // namespace

Prediction predict(const std::vector<const trace::TraceModel*>& models, const PredictOptions& options) {
  if (models.empty()) throw TraceError::bad_input("", "no trace to predict from");
  for (const auto gpus : options.gpus)
    if (gpus < 1)
      throw TraceError::bad_input("", fmt::format("--{}gpus must be at least 1 (got {})", options.option_prefix, gpus));
  if (options.strategy == Strategy::placement && !options.split_bytes)
    throw TraceError::bad_input(models.front()->path, fmt::format("placement needs --{}split-bytes (bytes crossing "
                                                                  "each split point)",
                                                                  options.option_prefix));
  if (options.sync && options.strategy != Strategy::data_parallel)
    throw TraceError::bad_input("", fmt::format("--{}sync applies to --{}strategy data-parallel", options.option_prefix,
                                                options.option_prefix));
  if (options.topology)
    for (const auto gpus : options.gpus)
      if (gpus > options.topology->gpus())
        throw TraceError::bad_input(options.topology->source,
                                    fmt::format("the topology has {} GPUs: it cannot hold a job on {}",
                                                options.topology->gpus(), gpus));
  if (models.size() > 1 && options.scaling == Scaling::weak)
    throw TraceError::bad_input(models[1]->path, "a second trace is the per-GPU batch of strong scaling: give "
                                                 "--scaling strong, or leave it out for weak scaling");
  Inputs inputs{models.front(), build_replay_graph(*models.front(), options.analysis), {}, models.size() > 1};
  check_steady_steps(inputs.graph, options.analysis.warmup_steps);
  check_one_gpu_trace(*models.front(), inputs.graph, options.accept_multi_gpu_trace);
  if (inputs.second_trace) {
    inputs.per_gpu = build_replay_graph(*models[1], options.analysis);
    check_steady_steps(inputs.per_gpu, options.analysis.warmup_steps);
    check_one_gpu_trace(*models[1], inputs.per_gpu, options.accept_multi_gpu_trace);
    check_same_program(*models.front(), inputs.graph, *models[1], inputs.per_gpu);
  } else {
    inputs.per_gpu = inputs.graph;
  }
  std::vector<std::string> link_notes;
  auto resolved = options;  // the link, when the user gave none, follows from the trace's GPU
  if (resolved.link.name.empty())
    resolved.link = link_for_device(*models.front(), inputs.graph.device, options.link_files, options.option_prefix,
                                    link_notes);
  return predict_resolved(inputs, models, resolved, link_notes);
}

namespace {

Prediction predict_resolved(const Inputs& inputs, const std::vector<const trace::TraceModel*>& models,
                            const PredictOptions& options, const std::vector<std::string>& link_notes) {
  Prediction prediction;
  prediction.trace = models.front()->path;
  if (inputs.second_trace) prediction.per_gpu_trace = models[1]->path;
  prediction.strategy = options.strategy, prediction.scaling = options.scaling;
  prediction.link_name = options.link.name, prediction.link_source = options.link.source;
  if (options.strategy == Strategy::data_parallel)
    prediction.sync = options.sync ? std::string(to_string(*options.sync)) : "ring-allreduce (assumed)";
  if (options.topology) prediction.topology = options.topology->source;
  const auto gradients = gradient_size(*models.front(), inputs.graph, options);
  prediction.gradient_bytes = gradients.bytes, prediction.gradient_source = gradients.source;
  check_bytes_fit(*models.front(), inputs.graph, prediction.gradient_bytes,
                  fmt::format("the gradient size ({})", gradients.source));
  if (options.split_bytes)
    check_bytes_fit(*models.front(), inputs.graph, *options.split_bytes, "--" + options.option_prefix + "split-bytes");
  const auto recorded = recorded_times(inputs.graph);
  const auto measured = steady_step_period(inputs.graph, recorded);
  prediction.measured_step_ns = measured.mean_ns, prediction.steady_steps = measured.steps;
  if (options.step_timelines)
    prediction.measured_step = step_timeline(inputs.graph, recorded, "");
  prediction.replayed_step_ns = steady_step_period(inputs.graph, replay(inputs.graph)).mean_ns;
  prediction.step_variability = options.stated_step_spread.value_or(
      measured_step_spread_share(inputs.graph).value_or(kStatedStepVariability));
  const auto host = host_pipeline(*models.front(), inputs.graph);
  prediction.host_data_ns = host.data_ns, prediction.host_launch_ns = host.launch_ns;
  prediction.host_copy_wait_ns = host.copy_wait_ns;
  prediction.notes = inputs.graph.notices;
  prediction.notes.insert(prediction.notes.end(), link_notes.begin(), link_notes.end());
  if (options.scaling == Scaling::strong && !inputs.second_trace && options.strategy != Strategy::placement)
    prediction.notes.push_back(
        "optimistic: assumes the per-GPU work scales with the batch (one trace; give a second "
        "trace recorded at the per-GPU batch for a measured per-GPU step)");
  if (!inputs.graph.backward_from_ranges)
    prediction.notes.push_back(
        "no range named like 'backward': the last two thirds of each step's computation are "
        "taken as backward");
  if (const auto centre = centre_note(options)) prediction.notes.push_back(*centre);
  prediction.notes.push_back(band_note(options));
  if (options.strategy == Strategy::data_parallel) prediction.notes.push_back(sync_note(options));
  for (const auto gpus : options.gpus) prediction.rows.push_back(predict_count(inputs, options, prediction, gpus));
  return prediction;
}

}  // namespace

std::string_view to_string(Strategy strategy) {
  switch (strategy) {
    case Strategy::data_parallel:
      return "data-parallel";
    case Strategy::host_staged:
      return "host-staged";
    case Strategy::placement:
      return "placement";
  }
  return "?";
}

std::string_view to_string(Call call) {
  switch (call) {
    case Call::faster:
      return "faster";
    case Call::no_faster:
      return "no faster";
    case Call::uncertain:
      return "uncertain";
  }
  return "?";
}

std::string_view to_string(Scaling scaling) { return scaling == Scaling::weak ? "weak" : "strong"; }

}  // namespace gpuprof::predict
