#pragma once

// A validation case's band in step time, kept beside its figures in the case's own unit.

#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::predict {

// `measured_step_ns`: the case's measured figure as one replica's step, on the prediction's scale.
void set_step_band(CaseResult& result, const GpuCountPrediction& row, double measured_step_ns);

}  // namespace gpuprof::predict
