#include "gpuprof/analysis/data_loss.hpp"

#include <algorithm>
#include <optional>

#include "gpuprof/trace/stats_catalogue.hpp"

namespace gpuprof::analysis {

std::vector<std::string> data_loss_warnings(const trace::TraceModel& model) {
  std::vector<std::string> warnings;
  for (const auto& stat : model.stats) {
    const bool dropped = trace::reports_data_loss(stat);
    const bool flagged = stat.severity == trace::Severity::warning || stat.severity == trace::Severity::error;
    if (!dropped && !flagged) continue;
    const auto severity = flagged ? std::string(trace::to_string(stat.severity)) : std::string("warning");
    const auto description = trace::stat_description(stat.name);
    auto line = stat.name + " = " + std::to_string(stat.value);
    if (stat.detail && !stat.detail->empty() && *stat.detail != description) line += " (" + *stat.detail + ")";
    line += " [" + severity + "]: " + std::string(description);
    warnings.push_back(line + "; totals may undercount");
  }
  return warnings;
}

RecordingLoss recording_loss(const std::vector<trace::StatRow>& stats) {
  RecordingLoss loss;
  for (const auto& stat : stats) {
    const auto value = std::max<std::int64_t>(stat.value, 0);
    const auto* info = trace::find_stat(stat.name);
    const auto id = info != nullptr ? std::optional(info->id) : std::nullopt;
    if (id == trace::StatId::buffer_requests_refused) {
      loss.refused_buffer_requests += value;
    } else if (id == trace::StatId::buffers_not_returned) {
      loss.buffers_not_returned += value;
    } else if (id == trace::StatId::activity_buffers_taken) {
      loss.records_taken += value;
    } else if (id == trace::StatId::records_dropped_after_stop) {
      loss.records_after_stop += value;
    } else if (trace::reports_data_loss(stat)) {
      // Every other data-loss stat, and an unknown one whose name says "dropped", is lost records.
      loss.dropped_records += value;
    }
  }
  return loss;
}

std::string RecordingLoss::text() const {
  if (!any()) return "no loss";
  std::vector<std::string> parts;
  if (dropped_records > 0) parts.push_back(std::to_string(dropped_records) + " dropped records");
  if (refused_buffer_requests > 0) {
    parts.push_back(std::to_string(refused_buffer_requests) + " refused buffer requests (their records are lost)");
  }
  if (buffers_not_returned > 0) {
    parts.push_back(std::to_string(buffers_not_returned) + " buffers never handed back (their records are lost)");
  }
  if (records_taken > 0) {
    parts.push_back(std::to_string(records_taken) + " launches whose records another CUPTI client took");
  }
  if (records_after_stop > 0) {
    parts.push_back(std::to_string(records_after_stop) +
                    " records made as the recording stopped (work still running then, or the program's after it)");
  }
  std::string text;
  for (const auto& part : parts) text += (text.empty() ? "" : ", ") + part;
  return text;
}

}  // namespace gpuprof::analysis
