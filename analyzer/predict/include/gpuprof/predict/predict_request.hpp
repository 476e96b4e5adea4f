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
  std::string gpus;  // as typed: "2" or "2,4,8" (parse_gpu_counts)
  std::string strategy = "data-parallel", allreduce = "bucketed", scaling = "weak";
  std::string link;  // empty: chosen from the trace's device name, and said so (never a silent default)
  std::vector<std::string> link_files;
  std::string sync;      // empty: ring all-reduce, the band covering the others where the link has no peer access
  std::string topology;  // `nvidia-smi topo -m` output file; empty: none
  std::optional<std::int64_t> grad_bytes, split_bytes;
  std::string step_pattern;  // empty: the analysis' default
  std::int64_t warmup_steps = 1;
  bool accept_multi_gpu_trace = false;  // `--multi-gpu-input`: a trace with collectives is meant as the input
  std::string option_prefix;           // "predict-" for `study --predict-*`: errors name the user's options
};

// Throws TraceError::bad_input naming the option for GPU counts that are not a list of 1 to kMaxGpus, an
// unknown strategy, schedule, scaling or link, a link file it cannot read, or a byte count below 1 (a typo
// never falls back to a default).
PredictOptions options_of(const PredictRequest& request);

// `--gpus`: "2,4,8" → {2, 4, 8}, in the order given; throws TraceError::bad_input for anything else
// (an empty item, a space, a word, a count outside 1 to kMaxGpus).
inline constexpr std::int64_t kMaxGpus = 65536;
std::vector<std::int32_t> parse_gpu_counts(const std::string& text, const std::string& option = "--gpus");

// The names options_of accepts, in the order `--help` lists them.
std::vector<std::string> strategy_names();
std::vector<std::string> scaling_names();
std::vector<std::string> allreduce_names();

}  // namespace gpuprof::predict
