#pragma once

// Where the step time of one configuration went, from the traces of its runs,
// by the analyzer's breakdown (DESIGN.md, "The analysis vocabulary").

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/progress/stage_counter.hpp"

namespace gpuprof::study {

// Sums over every device of every trace, warm-up steps left out. `gaps` is the
// idle time inside the windows plus the batch gaps between steps, so the four
// parts add up to `total_ns`.
struct BreakdownTotals {
  std::int64_t computation_ns = 0, exposed_transfer_ns = 0, exposed_comm_ns = 0, gaps_ns = 0;
  std::int64_t device_steps = 0;  // steady steps summed over devices (0: windows are activity spans)
  std::size_t traces = 0;
  std::int64_t total_ns() const { return computation_ns + exposed_transfer_ns + exposed_comm_ns + gaps_ns; }
  BreakdownTotals& operator+=(const BreakdownTotals& other);
};

struct TraceBreakdownResult {
  BreakdownTotals totals;
  std::vector<std::string> problems;  // traces that could not be analysed, and why
};

// `traces_done`, when given, counts each trace analysed (or refused) for a progress line.
TraceBreakdownResult breakdown_of_traces(const std::vector<std::string>& paths,
                                         progress::StageCounter* traces_done = nullptr);

}  // namespace gpuprof::study
