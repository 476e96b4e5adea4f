#include "gpuprof/predict/predict_request.hpp"

#include <fmt/format.h>

#include <utility>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/units/number_list.hpp"

namespace gpuprof::predict {
namespace {

Strategy parse_strategy(const std::string& name, const std::string& option) {
  for (const auto strategy : {Strategy::data_parallel, Strategy::host_staged, Strategy::placement})
    if (name == to_string(strategy)) return strategy;
  throw TraceError::bad_input("", fmt::format("unknown {} '{}' (data-parallel, host-staged or placement)", option,
                                              name));
}

// One of two names, else bad input naming the option.
bool second_of(const std::string& value, const std::string& option, const char* first, const char* second) {
  if (value != first && value != second)
    throw TraceError::bad_input("", fmt::format("unknown {} '{}' ({} or {})", option, value, first, second));
  return value == second;
}

}  // namespace

std::vector<std::int32_t> parse_gpu_counts(const std::string& text, const std::string& option) {
  if (text.empty()) throw TraceError::bad_input("", fmt::format("{}: required, GPU counts like 2,4,8", option));
  const auto numbers = units::parse_number_list(text);
  if (!numbers)
    throw TraceError::bad_input("", fmt::format("{}: expected GPU counts separated by commas, like 2,4,8, got '{}'",
                                                option, text));
  if (auto problem = units::number_list_problem(*numbers, option.c_str(), kMaxGpus); !problem.empty())
    throw TraceError::bad_input("", problem);
  std::vector<std::int32_t> counts;
  for (const auto number : *numbers) counts.push_back(static_cast<std::int32_t>(number));  // within [1, kMaxGpus]
  return counts;
}

PredictOptions options_of(const PredictRequest& request) {
  const auto option = [&](const char* name) { return fmt::format("--{}{}", request.option_prefix, name); };
  PredictOptions options;
  options.option_prefix = request.option_prefix;
  options.gpus = parse_gpu_counts(request.gpus, option("gpus"));
  options.strategy = parse_strategy(request.strategy, option("strategy"));
  options.schedule = second_of(request.allreduce, option("allreduce"), "bucketed", "after-backward")
                         ? AllReduceSchedule::after_backward
                         : AllReduceSchedule::bucketed;
  options.scaling = second_of(request.scaling, option("scaling"), "weak", "strong") ? Scaling::strong : Scaling::weak;
  if (request.link.empty()) {
    // The preset comes from the trace's GPU (predict); the files are read now, so a bad one is said first.
    with_link_files(link_preset("pcie3"), request.link_files);
    options.link_files = request.link_files;
  } else {
    options.link = with_link_files(link_preset(request.link), request.link_files);
  }
  if (!request.sync.empty()) options.sync = parse_sync(request.sync, option("sync"));
  if (!request.topology.empty()) options.topology = read_topology_file(request.topology);
  options.accept_multi_gpu_trace = request.accept_multi_gpu_trace;
  for (const auto& [value, name] : {std::pair{request.grad_bytes, "grad-bytes"}, {request.split_bytes, "split-bytes"}})
    if (value && *value < 1) throw TraceError::bad_input("", fmt::format("{} must be at least 1", option(name)));
  options.gradient_bytes = request.grad_bytes;
  options.split_bytes = request.split_bytes;
  options.analysis.warmup_steps = request.warmup_steps;
  if (!request.step_pattern.empty()) options.analysis.step_pattern = request.step_pattern;
  return options;
}

std::vector<std::string> strategy_names() { return {"data-parallel", "host-staged", "placement"}; }
std::vector<std::string> scaling_names() { return {"weak", "strong"}; }
std::vector<std::string> allreduce_names() { return {"bucketed", "after-backward"}; }

}  // namespace gpuprof::predict
