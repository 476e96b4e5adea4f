#include <cmath>

#include "gpuprof/rank/gap_summary.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/trace/records.hpp"
#include "json_fields.hpp"
#include "json_host_summaries.hpp"
#include "json_memory.hpp"
#include "json_idle.hpp"

namespace gpuprof::report {
namespace {

using Writer = JsonWriter;

using json::field;
using json::key;
using json::string;
void device_field(Writer& w, const char* name, std::int32_t device) {
  key(w, name);
  if (device == analysis::kHost) w.Null(); else w.Int(device);  // null: the host side
}

void breakdown_fields(Writer& w, const analysis::Breakdown& b) {
  field(w, "window_ns", b.window_ns);
  field(w, "computation_ns", b.computation_ns);
  field(w, "total_comm_ns", b.total_comm_ns);
  field(w, "exposed_comm_ns", b.exposed_comm_ns);
  field(w, "total_memcpy_ns", b.total_memcpy_ns);
  field(w, "exposed_memcpy_ns", b.exposed_memcpy_ns);
  field(w, "busy_ns", b.busy_ns);
  field(w, "idle_ns", b.idle_ns);
  field(w, "idle_in_steps_ns", b.idle_in_steps_ns);
  field(w, "batch_gap_ns", b.batch_gap_ns);
  key(w, "idle_causes");
  write_idle_causes(w, b.idle_in_steps_causes, b.batch_gap_causes);
}

void write_devices(Writer& w, const ReportInput& input) {
  key(w, "devices");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& device : rank.devices) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{device.device});
      breakdown_fields(w, device.total);
      field(w, "window_source", device.source == analysis::WindowSource::steps ? "steps" : "span");
      field(w, "steps", device.steps);
      field(w, "comm_hidden_share", device.total.comm_hidden_share());
      field(w, "memcpy_hidden_share", device.total.memcpy_hidden_share());
      key(w, "steady_state");
      w.StartObject();
      field(w, "steps", device.steady_steps);
      key(w, "all_steps_are_warmup"), w.Bool(device.steady_is_all_steps);
      field(w, "period_steps", device.period_steps);
      field(w, "avg_step_ns", device.average_step_ns());
      breakdown_fields(w, device.steady);
      w.EndObject();
      w.EndObject();
    }
  }
  w.EndArray();
}

void totals_fields(Writer& w, const analysis::TransferTotals& totals) {
  field(w, "count", totals.count);
  field(w, "bytes", totals.bytes);
  field(w, "total_ns", totals.total_ns);
  field(w, "exposed_ns", totals.exposed_ns);
  field(w, "gbps", totals.gigabytes_per_second());
}

void write_transfers(Writer& w, const ReportInput& input) {
  key(w, "transfers");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& pair : rank.transfers.pairs) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "kind", trace::to_string(pair.kind));
      device_field(w, "src_device", pair.src_device);
      device_field(w, "dst_device", pair.dst_device);
      totals_fields(w, pair.totals);
      w.EndObject();
    }
  }
  w.EndArray();
  key(w, "transfer_kinds");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& kind : rank.transfers.kinds) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "kind", trace::to_string(kind.kind));
      totals_fields(w, kind.totals);
      w.EndObject();
    }
  }
  w.EndArray();
  key(w, "transfer_matrix");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& entry : analysis::matrix_entries(rank.transfers.matrix)) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      device_field(w, "src_device", entry.src_device);
      device_field(w, "dst_device", entry.dst_device);
      totals_fields(w, entry.totals);
      w.EndObject();
    }
  }
  w.EndArray();
  key(w, "transfer_flags");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    const std::pair<const char*, const analysis::TransferTotals*> flags[] = {
        {"pageable_htod", &rank.transfers.pageable_host_to_device}, {"host_staged", &rank.transfers.host_staged}};
    for (const auto& [name, totals] : flags) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "pattern", std::string_view(name));
      totals_fields(w, *totals);
      w.EndObject();
    }
  }
  w.EndArray();
}

void summary_fields(Writer& w, const analysis::KernelSummaryRow& row) {
  field(w, "name", std::string_view(row.name));
  field(w, "short_name", std::string_view(row.short_name));
  field(w, "category", std::string_view(row.category));
  field(w, "rule", std::string_view(row.rule));
  json::duration_stat_fields(w, row.stats);
  field(w, "percent", row.percent);
}

void write_kernels(Writer& w, const ReportInput& input) {
  for (const auto* name : {"kernels", "kernel_categories"}) {
    const bool kernels = std::string_view(name) == "kernels";
    key(w, name);
    w.StartArray();
    // Every kernel row unless --top asked for fewer (kernel_rows 0).
    const auto limit = kernels ? table_view(Format::json, input).kernel_rows : 0;
    for (const auto& rank : input.ranks) {
      std::size_t written = 0;
      for (const auto& row : kernels ? rank.kernels.kernels : rank.kernels.categories) {
        if (limit > 0 && written++ == limit) break;
        w.StartObject();
        field(w, "rank", std::int64_t{rank.rank});
        summary_fields(w, row);
        w.EndObject();
      }
    }
    w.EndArray();
  }
  key(w, "comm_rules");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& row : rank.kernels.comm_rules) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "name", std::string_view(row.name));
      field(w, "short_name", std::string_view(row.short_name));
      field(w, "rule", std::string_view(row.rule));
      w.EndObject();
    }
  }
  w.EndArray();
}

// Unknown values (size, group size, bandwidths) are null.
void write_collectives(Writer& w, const ReportInput& input) {
  const auto known = [&w](const char* name, std::int64_t value) {
    key(w, name);
    if (value == trace::kUnknown) w.Null(); else w.Int64(value);
  };
  const auto bandwidth = [&w](const char* name, const std::optional<double>& value) {
    if (value) field(w, name, *value); else key(w, name), w.Null();
  };
  key(w, "collectives");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& group : rank.collectives.groups) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "collective", std::string_view(group.name));
      known("group_size", group.group_size);
      known("bytes", group.bytes);
      field(w, "count", group.count);
      field(w, "total_ns", group.total_ns);
      field(w, "mean_ns", group.mean_ns);
      bandwidth("algbw_gbps", group.algorithm_gbps);
      bandwidth("busbw_gbps", group.bus_gbps);
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_steps(Writer& w, const ReportInput& input) {
  key(w, "steps");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& entry : rank.steps) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{entry.step.device});
      field(w, "step", entry.step.step);
      field(w, "start_ns", entry.step.start_ns);
      field(w, "end_ns", entry.step.end_ns);
      field(w, "last_work_ns", entry.step.last_work_ns);
      breakdown_fields(w, entry.breakdown);
      key(w, "warmup"), w.Bool(entry.step.warmup);
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_gaps(Writer& w, const ReportInput& input) {
  key(w, "gaps");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (std::size_t index = 0; index < rank.gaps.size(); ++index) {
      const auto& gap = rank.gaps[index];
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{gap.device});
      field(w, "after_step", gap.after_step);
      field(w, "start_ns", gap.start_ns);
      field(w, "end_ns", gap.end_ns);
      field(w, "idle_ns", gap.idle_ns);
      field(w, "cause", analysis::to_string(gap.cause));
      field(w, "coverage", gap.coverage());
      key(w, "causes_ns");
      write_cause_times(w, gap.causes);
      key(w, "after_warmup"), w.Bool(gap.after_warmup);
      if (index < rank.gap_host_activity.size()) write_host_activity(w, rank.gap_host_activity[index]);
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_gap_summary(Writer& w, const ReportInput& input) {
  key(w, "gap_summary");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& stats : analysis::summarize_gaps(rank.gaps)) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{stats.device});
      field(w, "count", stats.count);
      field(w, "total_ns", stats.total_ns);
      field(w, "mean_ns", stats.mean_ns);
      field(w, "p50_ns", stats.p50_ns);
      field(w, "p95_ns", stats.p95_ns);
      field(w, "max_ns", stats.max_ns);
      key(w, "by_cause");
      w.StartObject();
      for (const auto& cause : stats.by_cause) {
        key(w, std::string(analysis::to_string(cause.cause)).c_str());
        w.StartObject();
        field(w, "count", cause.count);
        field(w, "idle_ns", cause.idle_ns);
        field(w, "covered_ns", cause.covered_ns);
        w.EndObject();
      }
      w.EndObject();
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_launches(Writer& w, const ReportInput& input) {
  key(w, "launches");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    for (const auto& launch : rank.launches) {
      w.StartObject();
      field(w, "rank", std::int64_t{rank.rank});
      field(w, "device", std::int64_t{launch.device});
      field(w, "launches", launch.delay.instances);
      field(w, "launches_per_second", launch.launches_per_second);
      field(w, "avg_delay_ns", launch.delay.avg_ns);
      field(w, "med_delay_ns", launch.delay.med_ns);
      field(w, "min_delay_ns", launch.delay.min_ns);
      field(w, "max_delay_ns", launch.delay.max_ns);
      w.EndObject();
    }
  }
  w.EndArray();
}

void write_ranks(Writer& w, const ReportInput& input) {
  key(w, "ranks");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    w.StartObject();
    field(w, "rank", std::int64_t{rank.rank});
    field(w, "path", std::string_view(rank.path));
    field(w, "trace_start_ns", rank.trace_start_ns);
    key(w, "notices");
    w.StartArray();
    for (const auto& notice : rank.notices) string(w, notice);
    w.EndArray();
    key(w, "warnings");
    w.StartArray();
    for (const auto& warning : rank.warnings) string(w, warning);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

void write_clocks(Writer& w, const job::ClockAlignment& clocks) {
  key(w, "clock_alignment");
  w.StartObject();
  field(w, "method", job::to_string(clocks.method));
  field(w, "reference_rank", std::int64_t{clocks.reference_rank});
  key(w, "offsets");
  w.StartArray();
  for (const auto& entry : clocks.offsets) {
    w.StartObject();
    field(w, "rank", std::int64_t{entry.rank});
    field(w, "offset_ns", entry.offset_ns);
    field(w, "method", job::to_string(entry.method));
    field(w, "matched", entry.matched);
    field(w, "spread_ns", entry.spread_ns);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void write_job_summary(Writer& w, const job::StragglerReport& report) {
  const auto& job = report.job;
  key(w, "job");
  w.StartObject();
  field(w, "ranks", std::int64_t{job.ranks});
  field(w, "devices", std::int64_t{job.devices});
  field(w, "mean_step_ns", job.mean_step_ns);
  field(w, "slowest_rank", std::int64_t{job.slowest_rank});
  field(w, "slowest_work_ns", job.slowest_work_ns);
  field(w, "fastest_rank", std::int64_t{job.fastest_rank});
  field(w, "fastest_work_ns", job.fastest_work_ns);
  field(w, "imbalance", job.imbalance);
  key(w, "stragglers");
  w.StartArray();
  for (const auto rank : job.stragglers) w.Int(rank);
  w.EndArray();
  field(w, "matched_collectives", job.matched_collectives);
  key(w, "ranks_timing");
  w.StartArray();
  for (const auto& rank : report.ranks) {
    w.StartObject();
    field(w, "rank", std::int64_t{rank.rank});
    field(w, "steps", rank.steps);
    field(w, "mean_step_ns", rank.mean_step_ns);
    field(w, "mean_lateness_ns", rank.mean_lateness_ns);
    field(w, "mean_collective_wait_ns", rank.mean_collective_wait_ns);
    field(w, "mean_work_ns", rank.mean_work_ns);
    field(w, "caused_wait_ns", rank.caused_wait_ns);
    field(w, "last_arrivals", rank.last_arrivals);
    key(w, "straggler"), w.Bool(rank.straggler);
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void write_straggler_steps(Writer& w, const std::vector<job::RankStep>& steps) {
  key(w, "straggler_steps");
  w.StartArray();
  for (const auto& step : steps) {
    w.StartObject();
    field(w, "step", step.step);
    field(w, "rank", std::int64_t{step.rank});
    key(w, "warmup"), w.Bool(step.warmup);
    field(w, "start_ns", step.start_ns);
    field(w, "duration_ns", step.duration_ns);
    field(w, "lateness_ns", step.lateness_ns);
    field(w, "collective_wait_ns", step.collective_wait_ns);
    w.EndObject();
  }
  w.EndArray();
}

// Only a job of several ranks has these keys, so single-rank output keeps its shape.
void write_job(Writer& w, const ReportInput& input) {
  if (!input.job || !input.has(Section::job)) return;
  write_clocks(w, input.job->clocks);
  write_job_summary(w, input.job->stragglers);
  write_straggler_steps(w, input.job->stragglers.steps);
  key(w, "job_notices");
  w.StartArray();
  for (const auto& notice : input.job->notices) string(w, notice);
  w.EndArray();
}

const char* part_id(PeriodPartKind kind) {
  switch (kind) {
    case PeriodPartKind::computation: return "computation";
    case PeriodPartKind::exposed_comm: return "exposed_comm";
    case PeriodPartKind::exposed_memcpy: return "exposed_memcpy";
    case PeriodPartKind::idle_in_steps: return "idle_in_steps";
    case PeriodPartKind::batch_gaps: return "batch_gaps";
  }
  return "computation";
}

void device_ref(Writer& w, const char* rank, const char* device, DeviceRef ref) {
  field(w, rank, std::int64_t{ref.rank});
  field(w, device, std::int64_t{ref.device});
}

void write_period(Writer& w, const PeriodSummary& period) {
  field(w, "ranks", std::int64_t{period.ranks});
  field(w, "devices", std::int64_t{period.devices});
  key(w, "from_steps"), w.Bool(period.from_steps);
  key(w, "all_steps_are_warmup"), w.Bool(period.all_warmup);
  field(w, "windows", period.windows);
  field(w, "window_ns", period.window_ns);
  field(w, "step_ns", period.step_ns);
  field(w, "min_step_ns", period.min_step_ns);
  device_ref(w, "min_step_rank", "min_step_device", period.min_step_device);
  field(w, "max_step_ns", period.max_step_ns);
  device_ref(w, "max_step_rank", "max_step_device", period.max_step_device);
  key(w, "parts");
  w.StartArray();
  for (const auto& part : period.parts) {
    w.StartObject();
    field(w, "part", std::string_view(part_id(part.kind)));
    field(w, "total_ns", part.total_ns);
    field(w, "share", part.share);
    field(w, "per_step_ns", part.per_step_ns);
    field(w, "min_share", part.min_share);
    device_ref(w, "min_rank", "min_device", part.min_device);
    field(w, "max_share", part.max_share);
    device_ref(w, "max_rank", "max_device", part.max_device);
    w.EndObject();
  }
  w.EndArray();
}

void write_summary_gaps(Writer& w, const GapsSummary& gaps) {
  key(w, "gaps");
  w.StartObject();
  field(w, "count", gaps.count);
  field(w, "idle_ns", gaps.idle_ns);
  key(w, "by_cause");
  w.StartArray();
  for (const auto& cause : gaps.causes) {
    w.StartObject();
    field(w, "cause", analysis::to_string(cause.cause));
    field(w, "count", cause.count);
    field(w, "idle_ns", cause.idle_ns);
    field(w, "coverage", cause.coverage());
    w.EndObject();
  }
  w.EndArray();
  key(w, "largest");
  w.StartArray();
  for (const auto& entry : gaps.largest) {
    w.StartObject();
    field(w, "rank", std::int64_t{entry.rank});
    field(w, "device", std::int64_t{entry.gap.device});
    field(w, "after_step", entry.gap.after_step);
    field(w, "start_ns", entry.gap.start_ns);
    field(w, "end_ns", entry.gap.end_ns);
    field(w, "idle_ns", entry.gap.idle_ns);
    field(w, "cause", analysis::to_string(entry.gap.cause));
    field(w, "coverage", entry.gap.coverage());
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void write_summary_transfers(Writer& w, const TransfersSummary& transfers) {
  key(w, "transfers");
  w.StartObject();
  field(w, "exposed_ns", transfers.exposed_ns);
  key(w, "kinds");
  w.StartArray();
  for (const auto& kind : transfers.kinds) {
    w.StartObject();
    field(w, "kind", trace::to_string(kind.kind));
    totals_fields(w, kind.totals);
    key(w, "worst_pair");
    w.StartObject();
    field(w, "rank", std::int64_t{kind.worst_rank});
    device_field(w, "src_device", kind.worst_pair.src_device);
    device_field(w, "dst_device", kind.worst_pair.dst_device);
    totals_fields(w, kind.worst_pair.totals);
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  w.EndObject();
}

void write_summary_job(Writer& w, const JobSummaryLines& job) {
  key(w, "job");
  w.StartObject();
  field(w, "slowest_rank", std::int64_t{job.job.slowest_rank});
  field(w, "slowest_work_ns", job.job.slowest_work_ns);
  field(w, "fastest_rank", std::int64_t{job.job.fastest_rank});
  field(w, "fastest_work_ns", job.job.fastest_work_ns);
  field(w, "imbalance", job.job.imbalance);
  key(w, "stragglers");
  w.StartArray();
  for (const auto& straggler : job.stragglers) {
    w.StartObject();
    field(w, "rank", std::int64_t{straggler.rank});
    field(w, "mean_lateness_ns", straggler.mean_lateness_ns);
    field(w, "share_of_step", straggler.share_of_step);
    field(w, "cause", idle::to_string(straggler.cause));
    field(w, "before_trace_ns", straggler.before_trace_ns);
    field(w, "peer_wait_caused_ns", straggler.peer_wait_caused_ns);
    field(w, "last_arrivals", straggler.last_arrivals);
    key(w, "lateness_causes_ns");
    w.StartObject();
    for (std::size_t i = 0; i < straggler.lateness_causes_ns.size(); ++i) {
      field(w, std::string(idle::to_string(static_cast<idle::IdleCause>(i))).c_str(), straggler.lateness_causes_ns[i]);
    }
    w.EndObject();
    w.EndObject();
  }
  w.EndArray();
  field(w, "least_exposed_comm_rank", std::int64_t{job.least_exposed_comm.rank});
  field(w, "least_exposed_comm_share", job.least_exposed_comm.share);
  field(w, "most_exposed_comm_rank", std::int64_t{job.most_exposed_comm.rank});
  field(w, "most_exposed_comm_share", job.most_exposed_comm.share);
  field(w, "longest_wait_rank", std::int64_t{job.longest_wait_rank});
  field(w, "longest_wait_ns", job.longest_wait_ns);
  w.EndObject();
}

// The report summary (report_summary.hpp) with raw values; `job` is null for one rank.
void write_summary(Writer& w, const ReportSummary& summary) {
  w.StartObject();
  write_period(w, summary.period);
  write_summary_idle(w, summary.idle);
  write_summary_gaps(w, summary.gaps);
  write_summary_transfers(w, summary.transfers);
  if (summary.job) write_summary_job(w, *summary.job); else key(w, "job"), w.Null();
  key(w, "data_loss");
  w.StartObject();
  field(w, "warnings", summary.data_loss.warnings);
  key(w, "ranks");
  w.StartArray();
  for (const auto rank : summary.data_loss.ranks) w.Int(rank);
  w.EndArray();
  w.EndObject();
  write_summary_advice(w, summary);
  w.EndObject();
}

}  // namespace

// Sections left out with --sections are written as empty arrays so readers can rely on every key.
std::string render_json(const ReportInput& input) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  w.SetIndent(' ', 1);
  w.StartObject();
  field(w, "format", std::string_view("gpuprof.report/3"));
  write_ranks(w, input);
  ReportInput empty;
  empty.ranks = {};
  const auto pick = [&](Section section) -> const ReportInput& { return input.has(section) ? input : empty; };
  write_devices(w, pick(Section::devices));
  write_transfers(w, pick(Section::transfers));
  write_kernels(w, pick(Section::kernels));
  write_collectives(w, pick(Section::collectives));
  write_steps(w, pick(Section::steps));
  write_gaps(w, pick(Section::gaps));
  write_gap_summary(w, pick(Section::gaps));
  write_idle_intervals(w, pick(Section::gaps));
  write_launches(w, pick(Section::launches));
  write_host_summaries(w, input);
  write_memory(w, input);
  write_job(w, input);
  key(w, "summary");
  if (input.has(Section::summary)) write_summary(w, summarize_report(input)); else w.Null();
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace gpuprof::report
