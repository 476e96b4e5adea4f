#pragma once

// Per N-GPU configuration, the waterfall of its step time against the 1-GPU
// run at the same batch, from the comparison library (docs/compare.md).

#include <string>
#include <utility>
#include <vector>

#include "gpuprof/study/study_data.hpp"

namespace gpuprof::study {

struct WaterfallRow {
  std::string configuration, base;  // the N-GPU configuration and its 1-GPU counterpart
  double base_step_ns = 0, step_ns = 0;
  std::vector<std::pair<std::string, double>> deltas_ns;  // add up to step_ns − base_step_ns
};

// Compares the traces of the first successful repeat of each side. Pairs whose
// traces cannot be compared (no GPU activity, no steps) are left out with a notice.
std::vector<WaterfallRow> waterfalls_of_study(const StudyData& data, const std::string& study_dir,
                                              std::vector<std::string>& notices);

}  // namespace gpuprof::study
