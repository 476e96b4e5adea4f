#pragma once

// A prediction as the user asks for it, by name (`gpuprof predict`'s options,
// the app's controls), checked and turned into PredictOptions in one place, so
// the command line and the app cannot read the same request differently.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::predict {

struct PredictRequest {
  std::vector<std::int32_t> gpus;
  std::string strategy = "data-parallel", allreduce = "bucketed", scaling = "weak", link = "nvlink3";
  std::vector<std::string> link_files;
  std::optional<std::int64_t> grad_bytes, split_bytes;
  std::string step_pattern;  // empty: the analysis' default
  std::int64_t warmup_steps = 1;
};

// Throws TraceError::bad_input naming the option for an unknown strategy, schedule, scaling or link, a
// link file it cannot read, or a byte count below 1 (a typo never falls back to a default).
PredictOptions options_of(const PredictRequest& request);

// The names options_of accepts, in the order `--help` lists them.
std::vector<std::string> strategy_names();
std::vector<std::string> scaling_names();
std::vector<std::string> allreduce_names();

}  // namespace gpuprof::predict
