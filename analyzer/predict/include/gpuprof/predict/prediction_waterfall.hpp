#pragma once

// A prediction's terms as the step-time waterfall the comparison draws: from
// the measured 1-GPU step, each term (largest first, as the prediction orders
// them) floating from the level the ones before reached, to the predicted step
// of one replica on N GPUs. The terms add up, so the last level is that step.

#include <vector>

#include "gpuprof/comparison/waterfall_bars.hpp"
#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::predict {

std::vector<comparison::WaterfallBar> prediction_waterfall(const Prediction& prediction, const GpuCountPrediction& row);

}  // namespace gpuprof::predict
