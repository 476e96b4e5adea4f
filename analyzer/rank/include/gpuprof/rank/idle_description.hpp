#pragma once

// One idle interval in words, for the app's hover ("idle 139 ms inside step
// 552: blocking_copy (coverage 99.6%); host_bound 0.4%"), and the lookup of the
// interval under a time point.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/idle/idle_attribution.hpp"

namespace gpuprof::idle {

std::string describe_idle(const IdleInterval& interval);
// A batch gap in the same words: "batch gap 396 us after step 18 (idle 396 us): data_loading (coverage
// 98.3%); data_loading 98.3%; unrecorded 1.7%", the shares of its idle time.
std::string describe_gap(const analysis::BatchGap& gap);

// The interval of `device` holding `time_ns`, or nullptr; `intervals` sorted by (device, start) as
// RankAnalysis::idle_intervals are.
const IdleInterval* idle_interval_at(const std::vector<IdleInterval>& intervals, std::int32_t device,
                                     std::int64_t time_ns);

}  // namespace gpuprof::idle
