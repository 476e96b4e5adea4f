#include "gpuprof/predict/prediction_waterfall.hpp"

#include <fmt/format.h>

namespace gpuprof::predict {

std::vector<comparison::WaterfallBar> prediction_waterfall(const Prediction& prediction,
                                                           const GpuCountPrediction& row) {
  std::vector<comparison::WaterfallChange> changes;
  for (const auto& term : row.terms) changes.push_back({term.name, term.ns});
  return comparison::waterfall_bars("measured 1-GPU step", prediction.measured_step_ns, changes,
                                    fmt::format("predicted step on {} GPU{}", row.gpus, row.gpus == 1 ? "" : "s"),
                                    row.step_ns);
}

}  // namespace gpuprof::predict
