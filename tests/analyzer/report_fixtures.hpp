#pragma once

// The small two-rank job the report tests render: two GPUs per rank, three steps, communication with
// collective metadata, peer copies, a pageable upload, a data-loss warning and kernel names an attacker
// could have put into a trace.

#include "gpuprof/report/report_model.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::testing {

trace::TraceModel golden_model(int rank);
// Both ranks analysed on their own, without the job sections.
report::ReportInput golden_input();
// Both ranks as one job: clock alignment and stragglers included.
report::ReportInput golden_job_input();

}  // namespace gpuprof::testing
