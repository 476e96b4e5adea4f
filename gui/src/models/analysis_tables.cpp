#include "gpuprof/gui/models/analysis_tables.hpp"

#include "gpuprof/analysis/kernel_labels.hpp"
#include "gpuprof/rank/step_gaps.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {

TableCell text(const std::string& value) { return {QString::fromStdString(value), {}}; }
TableCell text(std::string_view value) { return text(std::string(value)); }
TableCell count(std::int64_t value) { return {QString::number(value), QVariant::fromValue<qint64>(value)}; }
TableCell duration(std::int64_t ns) {
  return {QString::fromStdString(units::format_duration(ns)), QVariant::fromValue<qint64>(ns)};
}
TableCell duration(double ns) { return duration(static_cast<std::int64_t>(ns + 0.5)); }
TableCell bytes(std::int64_t value) {
  return {QString::fromStdString(units::format_bytes(value)), QVariant::fromValue<qint64>(value)};
}
TableCell real(double value, int decimals) { return {QString::number(value, 'f', decimals), value}; }
TableCell device(std::int32_t id) {
  return id == analysis::kHost ? TableCell{QStringLiteral("host"), -1} : TableCell{QStringLiteral("GPU %1").arg(id), id};
}

std::vector<TableCell> transfer_cells(std::int32_t rank, trace::CopyKind kind, TableCell src, TableCell dst,
                                      const analysis::TransferTotals& totals) {
  return {count(rank),          text(trace::to_string(kind)), std::move(src),
          std::move(dst),       count(totals.count),          bytes(totals.bytes),
          duration(totals.total_ns), duration(totals.exposed_ns), real(totals.gigabytes_per_second(), 2)};
}

TableCell unknown() { return {QStringLiteral("-"), {}}; }
TableCell known_count(std::int64_t value) { return value == trace::kUnknown ? unknown() : count(value); }
TableCell known_bytes(std::int64_t value) { return value == trace::kUnknown ? unknown() : bytes(value); }
TableCell bandwidth(const std::optional<double>& value) { return value ? real(*value, 2) : unknown(); }

}  // namespace

TableModel* make_kernel_model(const Session& session, QObject* parent) {
  // Rank right after the name: in a job the same kernel appears once per rank, and a narrow dock must still
  // tell those rows apart.
  auto* model = new TableModel({"Name", "Total", "Time (%)", "Instances", "Rank", "Avg", "Med", "Min", "Max",
                                "StdDev", "Category", "Comm rule", "Full name"},
                               parent);
  TableRows rows;
  std::vector<QVariant> payloads;
  for (const auto& rank : session.ranks) {
    const auto& kernels = rank->analysis.kernels.kernels;
    // The report's labels: rows whose short names collide are numbered, as in `gpuprof report`.
    const auto labels = analysis::kernel_labels(kernels, false);
    for (std::size_t index = 0; index < kernels.size(); ++index) {
      const auto& kernel = kernels[index];
      const auto& stats = kernel.stats;
      rows.push_back({text(labels[index]), duration(stats.total_ns), real(kernel.percent, 1),
                      count(stats.instances), count(rank->analysis.rank), duration(stats.avg_ns),
                      duration(stats.med_ns), duration(stats.min_ns), duration(stats.max_ns),
                      duration(stats.stddev_ns), text(kernel.category), text(kernel.rule), text(kernel.name)});
      payloads.push_back(QString::fromStdString(kernel.name));
    }
  }
  model->set_rows(std::move(rows), std::move(payloads));
  return model;
}

TableModel* make_step_model(const Session& session, QObject* parent) {
  auto* model = new TableModel(
      {"Rank", "Device", "Step", "Start", "Period", "Busy", "Idle in step", "Batch gap", "Gap cause"}, parent);
  TableRows rows;
  std::vector<QVariant> payloads;
  for (std::size_t index = 0; index < session.ranks.size(); ++index) {
    const auto& rank = session.ranks[index];
    const auto& steps = rank->analysis.steps;
    const auto& gaps = rank->analysis.gaps;
    const auto step_gaps = analysis::gap_of_each_step(steps, gaps);
    for (std::size_t position = 0; position < steps.size(); ++position) {
      const auto& entry = steps[position];
      const auto& step = entry.step;
      const auto gap = step_gaps[position];
      std::vector<TableCell> row{count(rank->analysis.rank), device(step.device),
                                 {QString::number(step.step) + (step.warmup ? QStringLiteral(" (warm-up)") : QString()),
                                  QVariant::fromValue<qint64>(step.step)},
                                 duration(step.start_ns - session.start_ns), duration(entry.breakdown.window_ns),
                                 duration(entry.breakdown.busy_ns), duration(entry.breakdown.idle_in_steps_ns),
                                 duration(entry.breakdown.batch_gap_ns),
                                 text(gap ? analysis::to_string(gaps[*gap].cause) : std::string_view("-"))};
      rows.push_back(std::move(row));
      payloads.push_back(QVariant::fromValue(QList<qint64>{step.start_ns, step.end_ns, static_cast<qint64>(index)}));
    }
  }
  model->set_rows(std::move(rows), std::move(payloads));
  return model;
}

TableModel* make_transfer_model(const Session& session, QObject* parent) {
  auto* model = new TableModel(
      {"Rank", "Kind", "Source", "Destination", "Count", "Bytes", "Total", "Exposed", "GB/s"}, parent);
  TableRows rows;
  for (const auto& rank : session.ranks) {
    const auto& transfers = rank->analysis.transfers;
    for (const auto& kind : transfers.kinds) {
      rows.push_back(transfer_cells(rank->analysis.rank, kind.kind, text(std::string("all")), text(std::string("all")),
                                    kind.totals));
    }
    for (const auto& pair : transfers.pairs) {
      rows.push_back(
          transfer_cells(rank->analysis.rank, pair.kind, device(pair.src_device), device(pair.dst_device), pair.totals));
    }
  }
  model->set_rows(std::move(rows));
  return model;
}

TableModel* make_collective_model(const Session& session, QObject* parent) {
  auto* model = new TableModel(
      {"Rank", "Collective", "Ranks", "Size", "Count", "Total", "Mean", "Alg GB/s", "Bus GB/s"}, parent);
  TableRows rows;
  for (const auto& rank : session.ranks) {
    for (const auto& group : rank->analysis.collectives.groups) {
      rows.push_back({count(rank->analysis.rank), text(group.name), known_count(group.group_size),
                      known_bytes(group.bytes), count(group.count), duration(group.total_ns), duration(group.mean_ns),
                      bandwidth(group.algorithm_gbps), bandwidth(group.bus_gbps)});
    }
  }
  model->set_rows(std::move(rows));
  return model;
}

namespace {

const std::vector<summaries::NamedDurations>& rows_of(const summaries::HostSummaries& host, HostTable table) {
  switch (table) {
    case HostTable::ranges: return host.ranges;
    case HostTable::api_calls: return host.api_calls;
    case HostTable::launch_latency: return host.launch_latency;
  }
  return host.ranges;
}

}  // namespace

TableModel* make_host_table_model(const Session& session, const std::vector<summaries::HostSummaries>& host,
                                  HostTable table, QObject* parent) {
  auto* model = new TableModel(
      {"Name", "Time (%)", "Total", "Instances", "Avg", "Rank", "Med", "Min", "Max", "StdDev"}, parent);
  TableRows rows;
  for (std::size_t index = 0; index < host.size() && index < session.ranks.size(); ++index) {
    for (const auto& row : rows_of(host[index], table)) {
      const auto& stats = row.stats;
      rows.push_back({text(row.name), real(row.percent, 1), duration(stats.total_ns), count(stats.instances),
                      duration(stats.avg_ns), count(session.ranks[index]->analysis.rank), duration(stats.med_ns),
                      duration(stats.min_ns), duration(stats.max_ns), duration(stats.stddev_ns)});
    }
  }
  model->set_rows(std::move(rows));
  return model;
}

TableModel* make_launch_queue_model(const Session& session, const std::vector<summaries::HostSummaries>& host,
                                    QObject* parent) {
  auto* model = new TableModel({"Rank", "Device", "Kernels", "Max queue", "Mean queue", "Empty (%)"}, parent);
  TableRows rows;
  for (std::size_t index = 0; index < host.size() && index < session.ranks.size(); ++index) {
    for (const auto& queue : host[index].launch_queues) {
      rows.push_back({count(session.ranks[index]->analysis.rank), device(queue.device), count(queue.kernels),
                      count(queue.max_depth), real(queue.mean_depth, 2), real(queue.share_empty * 100, 1)});
    }
  }
  model->set_rows(std::move(rows));
  return model;
}

}  // namespace gpuprof::gui
