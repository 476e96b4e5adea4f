#pragma once

// Statistics of measured samples (delays, step periods, errors) for the prediction.

#include <vector>

namespace gpuprof::predict {

// The sample standard deviation without outliers: a sample whose modified z-score (0.6745 × its distance
// from the median over the median absolute deviation) exceeds 3.5 is left out (Iglewicz and Hoaglin's rule).
// One step that an epoch boundary or a checkpoint lengthens for every replica alike is not jitter.
double robust_spread(const std::vector<double>& values);

}  // namespace gpuprof::predict
