#pragma once

// The parts of a Chrome trace, each written by its own file. Categories, names
// and args follow Kineto so that the Kineto importer reads every row back.

#include <optional>
#include <string>
#include <vector>

#include "chrome_trace_layout.hpp"
#include "event_writer.hpp"
#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::exporters {

// What the top-level keys before traceEvents say: schemaVersion,
// deviceProperties, distributedInfo, baseTimeNanoseconds.
struct TraceHeader {
  std::vector<trace::DeviceRow> devices;  // ids as the file's `device` args number them
  std::optional<std::int32_t> rank, world_size;  // a job's file has a world size and no rank
  std::string backend;
};
TraceHeader trace_header(const trace::TraceModel& model, std::optional<std::int32_t> rank);
void write_trace_header(const TraceHeader& header, std::int64_t base_ns, EventWriter& writer);

// kernel, gpu_memcpy, gpu_memset and gpu_user_annotation events on the GPU processes.
void write_gpu_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer);

// cuda_runtime, cuda_driver, cuda_sync and user_annotation events on the host processes.
void write_host_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer);

// ac2g arrows from each API call to the GPU work it launched (same correlation id),
// numbered from `next_id` on (one numbering for every rank of a job's file).
void write_flow_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, std::int64_t& next_id,
                       EventWriter& writer);

// A "batch gap" counter per GPU from the analyzer's batch gaps.
void write_gap_counters(const std::vector<trace::GapRow>& gaps, const ChromeTraceLayout& layout,
                        EventWriter& writer);

// The earliest instant of a trace's rows (none for an empty trace), so relative times stay short and non-negative.
std::optional<std::int64_t> earliest_start(const trace::TraceModel& model);
// The largest correlation id of a trace's rows (0 when none is known).
std::int64_t largest_correlation(const trace::TraceModel& model);

// Every event of one trace, after its layout's metadata: host, GPU, launch arrows, gap counters.
void write_rank_events(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps,
                       const ChromeTraceLayout& layout, std::int64_t& next_flow_id, EventWriter& writer);

}  // namespace gpuprof::exporters
