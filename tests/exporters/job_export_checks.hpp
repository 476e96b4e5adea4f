#pragma once

// Checks shared by the synthetic and the real-trace tests of a job's merged
// Chrome trace: it is what Perfetto expects, and it reads back to the job's report.

#include <rapidjson/document.h>

#include <cstdint>
#include <string>

#include "gpuprof/job/job_analysis.hpp"

namespace gpuprof::testing {

struct MergedTraceShape {
  std::size_t complete = 0;          // X events
  std::size_t collective_chains = 0;  // gpuprof_collective flows
  std::size_t launch_arrows = 0;     // ac2g flows
};

// Phases, units, flows and process names of a job's file, with a gtest
// failure for each problem: every event is a known phase on a named process
// (and, for X, a named thread); times are microseconds, non-negative; each
// flow has one start and one finish bound to a slice of its track; each GPU
// process is named "rank R · GPU D" and every rank of `job` has one.
MergedTraceShape check_merged_trace(const rapidjson::Document& document, const job::JobAnalysis& job);

// Imports `merged` (the Kineto importer) and analyses it as one trace: device k
// of it is the k-th (rank, device) of the job, and its breakdown, steps,
// kernels and their times on the reference clock must be those of the job.
void expect_same_report(const job::JobAnalysis& job, const std::string& merged, const std::string& imported);

}  // namespace gpuprof::testing
