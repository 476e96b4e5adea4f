#pragma once

// Problems the collector or an importer wrote down in collector_stats
// (dropped records, invalid buffers, malformed input): one line each, so a
// report can put them on its first screen (DESIGN.md, "No silent loss").

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

// One line per statistic of severity warning or error, and per non-zero count
// of a data-loss stat whatever its severity (older files wrote those as info),
// with the stat's description from the catalogue (trace/stats_catalogue.hpp).
std::vector<std::string> data_loss_warnings(const trace::TraceModel& model);

// What a recording lost, in the collector's words: records CUPTI dropped, buffer
// requests the collector refused (CUPTI drops those records too, and counts
// them only among the dropped when it reports them at all), buffers never
// handed back, and launches whose records another CUPTI client took.
struct RecordingLoss {
  std::int64_t dropped_records = 0;
  std::int64_t refused_buffer_requests = 0;
  std::int64_t buffers_not_returned = 0;
  std::int64_t records_taken = 0;
  // Dropped as the recording stopped: work still running then, or the program's after it.
  std::int64_t records_after_stop = 0;
  bool any() const {
    return dropped_records > 0 || refused_buffer_requests > 0 || buffers_not_returned > 0 || records_taken > 0 ||
           records_after_stop > 0;
  }
  // "17 dropped records, 3 refused buffer requests" or "no loss".
  std::string text() const;
};
RecordingLoss recording_loss(const std::vector<trace::StatRow>& stats);

}  // namespace gpuprof::analysis
