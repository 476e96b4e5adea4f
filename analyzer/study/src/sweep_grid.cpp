#include "gpuprof/study/sweep_grid.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <set>

#include "gpuprof/units/number_list.hpp"

namespace gpuprof::study {
namespace {

namespace fs = std::filesystem;

const std::set<std::string> kWorkloads = {"rnn", "towers", "resnet", "mlp"};
// The multi-GPU strategies the built-in workloads know; `single` is implied by --gpus 1.
const std::set<std::string> kStrategies = {"data-parallel", "host-staged"};

constexpr std::int64_t kMaxBatch = 1 << 24;
constexpr std::int64_t kMaxGpus = 1024;
constexpr std::int64_t kMaxSyntheticGpus = 64;  // gpuprof synth's --devices limit

// The first word of a shell command, honouring simple quotes.
std::string first_word(const std::string& command) {
  std::string word;
  char quote = 0;
  for (const char c : command) {
    if (quote != 0) {
      if (c == quote) quote = 0; else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '|' || c == '&') {
      if (!word.empty()) break;
    } else {
      word += c;
    }
  }
  return word;
}

bool is_executable(const fs::path& path) {
  std::error_code error;
  return fs::is_regular_file(path, error) && ::access(path.c_str(), X_OK) == 0;
}

// Single quotes keep a substituted path intact in the shell.
std::string shell_quote(const std::string& text) {
  if (!text.empty() && text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789/._-+=:,") ==
                           std::string::npos) {
    return text;
  }
  std::string quoted = "'";
  for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

}  // namespace

std::string Configuration::name() const {
  return fmt::format("{}_b{}_g{}_{}", workload.empty() ? "command" : workload, batch, gpus, strategy);
}

std::string check_settings(const SweepSettings& settings) {
  if (settings.command.empty() && !kWorkloads.count(settings.workload)) {
    return fmt::format("--workload: unknown workload '{}' (use rnn, towers, resnet or mlp, or --command)",
                       settings.workload);
  }
  if (!settings.command.empty() && !settings.workload.empty()) return "--workload and --command exclude each other";
  if (auto problem = units::number_list_problem(settings.batches, "--batch", kMaxBatch); !problem.empty()) return problem;
  if (auto problem = units::number_list_problem(settings.gpus, "--gpus", kMaxGpus); !problem.empty()) return problem;
  if (!kStrategies.count(settings.strategy)) {
    return fmt::format("--strategy: unknown strategy '{}' (use data-parallel or host-staged)", settings.strategy);
  }
  if (settings.epochs && settings.steps) return "--epochs and --steps exclude each other";
  if (settings.epochs && *settings.epochs < 1) return "--epochs: must be at least 1";
  if (settings.steps && *settings.steps < 1) return "--steps: must be at least 1";
  if (settings.repeat < 1 || settings.repeat > 1000) return "--repeat: must be between 1 and 1000";
  if (settings.synthetic) {
    if (!settings.command.empty()) return "--synthetic sweeps a built-in workload's grid; it takes no --command";
    if (settings.calibrate) return "--calibrate measures the collector's overhead, which a synthetic sweep has not";
    if (auto problem = units::number_list_problem(settings.gpus, "--gpus", kMaxSyntheticGpus); !problem.empty()) {
      return problem;
    }
  }
  return {};
}

std::string check_machine(const SweepSettings& settings, int gpu_count, const std::string& no_gpu_reason) {
  if (settings.synthetic || !settings.command.empty()) return {};
  if (gpu_count == 0) {
    return "no GPU to run the " + settings.workload + " workload on: " + no_gpu_reason +
           " (gpuprof sweep --synthetic shows the same study on synthetic traces)";
  }
  const auto most = *std::max_element(settings.gpus.begin(), settings.gpus.end());
  if (most > gpu_count) {
    return fmt::format("--gpus asks for {} GPUs, but this machine has {} (CUDA_VISIBLE_DEVICES counts)", most,
                       gpu_count);
  }
  return {};
}

std::vector<Configuration> expand_grid(const SweepSettings& settings) {
  std::vector<Configuration> configurations;
  std::set<std::pair<std::int64_t, std::int64_t>> seen;
  for (const auto batch : settings.batches) {
    for (const auto gpus : settings.gpus) {
      if (!seen.insert({batch, gpus}).second) continue;
      configurations.push_back(
          {settings.workload, batch, gpus, gpus == 1 ? std::string("single") : settings.strategy});
    }
  }
  return configurations;
}

std::string substitute_placeholders(const std::string& pattern, const std::map<std::string, std::string>& values) {
  std::string result;
  std::size_t position = 0;
  while (position < pattern.size()) {
    const auto open = pattern.find('{', position);
    const auto close = open == std::string::npos ? std::string::npos : pattern.find('}', open);
    if (close == std::string::npos) {
      result += pattern.substr(position);
      break;
    }
    result += pattern.substr(position, open - position);
    const auto found = values.find(pattern.substr(open + 1, close - open - 1));
    result += found != values.end() ? found->second : pattern.substr(open, close - open + 1);
    position = close + 1;
  }
  return result;
}

std::vector<std::string> command_for(const SweepSettings& settings, const Configuration& configuration,
                                     const std::string& summary_path, const std::string& workload_binary) {
  if (!settings.command.empty()) {
    const std::map<std::string, std::string> values = {{"batch", std::to_string(configuration.batch)},
                                                       {"gpus", std::to_string(configuration.gpus)},
                                                       {"strategy", configuration.strategy},
                                                       {"summary", shell_quote(summary_path)}};
    return {"/bin/sh", "-c", substitute_placeholders(settings.command, values)};
  }
  std::vector<std::string> command = {workload_binary, configuration.workload,
                                      "--batch", std::to_string(configuration.batch),
                                      "--gpus", std::to_string(configuration.gpus),
                                      "--strategy", configuration.strategy};
  if (settings.epochs) command.insert(command.end(), {"--epochs", std::to_string(*settings.epochs)});
  if (settings.steps) command.insert(command.end(), {"--steps", std::to_string(*settings.steps)});
  command.insert(command.end(), {"--summary", summary_path});
  command.insert(command.end(), settings.extra_arguments.begin(), settings.extra_arguments.end());
  return command;
}

std::string program_of(const SweepSettings& settings, const Configuration& configuration,
                       const std::string& workload_binary) {
  if (settings.command.empty()) return workload_binary;
  const std::map<std::string, std::string> values = {{"batch", std::to_string(configuration.batch)},
                                                     {"gpus", std::to_string(configuration.gpus)},
                                                     {"strategy", configuration.strategy},
                                                     {"summary", "summary.json"}};
  return first_word(substitute_placeholders(settings.command, values));
}

bool program_exists(const std::string& program) {
  if (program.empty()) return false;
  if (program.find('/') != std::string::npos) return is_executable(program);
  const char* path = std::getenv("PATH");
  std::string folders = path != nullptr ? path : "/usr/bin:/bin";
  std::size_t start = 0;
  while (start <= folders.size()) {
    auto end = folders.find(':', start);
    if (end == std::string::npos) end = folders.size();
    const std::string folder = folders.substr(start, end - start);
    if (is_executable(fs::path(folder.empty() ? "." : folder) / program)) return true;
    start = end + 1;
  }
  // Shell built-ins and keywords (e.g. `exit 2`, `true`) are not files but still run.
  static const std::set<std::string> builtins = {"exit", "true", "false", ":", "echo", "cd", "test", "[", "printf",
                                                 "set", "export", "if", "for", "while", "{", "("};
  return builtins.count(program) > 0;
}

std::string settings_fingerprint(const SweepSettings& settings) {
  // "synthetic" only when set, so studies swept before the option existed still resume.
  std::string text = fmt::format("workload={}{};strategy={};epochs={};steps={};command={};args=",
                                 settings.workload, settings.synthetic ? ";synthetic" : "", settings.strategy,
                                 settings.epochs ? std::to_string(*settings.epochs) : "",
                                 settings.steps ? std::to_string(*settings.steps) : "", settings.command);
  for (const auto& argument : settings.extra_arguments) text += argument + "\x1f";
  return text;
}

}  // namespace gpuprof::study
