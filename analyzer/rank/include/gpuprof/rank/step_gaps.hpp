#pragma once

// Which batch gap belongs to which step. A gap is the tail of one step's window (DESIGN.md, "Batch gap"), so it
// belongs to the step on its device whose number it carries (after_step) and whose window it closes (the same
// end). The rule is spelled once here for every table that shows a step beside its gap (the app's step table,
// the job's windows); `report --gaps all` lists the same gaps with their step number.

#include <cstddef>
#include <optional>
#include <vector>

#include "gpuprof/rank/gaps.hpp"
#include "gpuprof/rank/time_breakdown.hpp"

namespace gpuprof::analysis {

// For each entry of `steps`, the index in `gaps` of its gap, or nothing (the last step of a device, a step
// without idle tail). One to one: a step gets at most one gap and a gap at most one step, even where hostile
// names number two steps alike. One merge walk over both lists in (device, end, step) order: O(steps + gaps)
// when they come in that order, as compute_breakdown and find_batch_gaps give them; sorted first otherwise.
std::vector<std::optional<std::size_t>> gap_of_each_step(const std::vector<StepBreakdown>& steps,
                                                         const std::vector<BatchGap>& gaps);

}  // namespace gpuprof::analysis
