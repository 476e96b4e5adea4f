#pragma once

// The parts of a Chrome trace, each written by its own file. Categories, names
// and args follow Kineto so that the Kineto importer reads every row back.

#include <vector>

#include "chrome_trace_layout.hpp"
#include "event_writer.hpp"
#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::exporters {

// Top-level keys before traceEvents: schemaVersion, deviceProperties,
// distributedInfo, baseTimeNanoseconds.
void write_trace_header(const trace::TraceModel& model, std::int64_t base_ns, EventWriter& writer);

// kernel, gpu_memcpy, gpu_memset and gpu_user_annotation events on the GPU processes.
void write_gpu_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer);

// cuda_runtime, cuda_driver, cuda_sync and user_annotation events on the host processes.
void write_host_events(const trace::TraceModel& model, EventWriter& writer);

// ac2g arrows from each API call to the GPU work it launched (same correlation id).
void write_flow_events(const trace::TraceModel& model, const ChromeTraceLayout& layout, EventWriter& writer);

// A "batch gap" counter per GPU from the analyzer's derived gaps table.
void write_gap_counters(const std::vector<trace::GapRow>& gaps, const ChromeTraceLayout& layout,
                        EventWriter& writer);

}  // namespace gpuprof::exporters
