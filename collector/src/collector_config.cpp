#include "gpuprof/collector/collector_config.hpp"

#include <charconv>

#include "gpuprof/launcher/collector_environment.hpp"
#include "gpuprof/launcher/output_pattern.hpp"

namespace gpuprof::collector {
namespace {

namespace env = launcher::environment;

std::optional<std::uint64_t> parse_unsigned(const std::string& text) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Reads a number within [low, high]; otherwise warns and leaves `target` alone.
template <typename Value>
void read_number(const EnvironmentLookup& environment, const char* name, std::uint64_t low, std::uint64_t high,
                 Value& target, std::vector<std::string>& warnings) {
  const auto text = environment(name);
  if (!text) return;
  const auto value = parse_unsigned(*text);
  if (!value || *value < low || *value > high) {
    warnings.push_back(std::string(name) + "=" + *text + " is not a number in [" + std::to_string(low) + ", " +
                       std::to_string(high) + "]; using " + std::to_string(target));
    return;
  }
  target = static_cast<Value>(*value);
}

}  // namespace

std::vector<std::string> apply_trace_list(const std::string& list, CollectorConfig& config) {
  config.trace_cuda = config.trace_nvtx = config.trace_api = config.trace_sync = config.trace_driver = false;
  config.trace_memory = false;
  config.trace_frequent_api = false;
  std::vector<std::string> unknown;
  std::size_t position = 0;
  while (position <= list.size()) {
    auto comma = list.find(',', position);
    if (comma == std::string::npos) comma = list.size();
    const std::string item = list.substr(position, comma - position);
    position = comma + 1;
    if (item.empty()) continue;
    if (item == "cuda") config.trace_cuda = true;
    else if (item == "nvtx") config.trace_nvtx = true;
    else if (item == "api") config.trace_api = true;
    else if (item == "api-all") config.trace_api = config.trace_frequent_api = true;
    else if (item == "sync") config.trace_sync = true;
    else if (item == "driver") config.trace_driver = true;
    else if (item == "memory") config.trace_memory = true;
    else unknown.push_back(item);
  }
  return unknown;
}

CollectorConfig read_collector_config(const EnvironmentLookup& environment) {
  CollectorConfig config;
  config.output_pattern = environment(env::kOutputPattern).value_or(std::string(launcher::kDefaultOutputPattern));
  if (config.output_pattern.empty()) config.output_pattern = launcher::kDefaultOutputPattern;
  config.force = environment(env::kForce).value_or("") == "1";
  config.files_list = environment(env::kFilesList).value_or("");
  read_number(environment, env::kBufferSize, kMinBufferSize, kMaxBufferSize, config.buffer_size, config.warnings);
  read_number(environment, env::kBufferCount, 2, 4096, config.buffer_count, config.warnings);
  read_number(environment, env::kFlushIntervalMs, 10, 3'600'000, config.flush_interval_ms, config.warnings);
  if (config.buffer_size * config.buffer_count > kMaxTotalBufferBytes) {
    config.warnings.push_back("activity buffers would take more than 4 GiB; using " +
                              std::to_string(kMaxTotalBufferBytes / config.buffer_size) + " buffers");
    config.buffer_count = kMaxTotalBufferBytes / config.buffer_size;
  }
  if (const auto list = environment(env::kTrace)) {
    for (const auto& name : apply_trace_list(*list, config)) {
      config.warnings.push_back("unknown trace kind '" + name + "' in " + env::kTrace + " ignored");
    }
  }
  return config;
}

}  // namespace gpuprof::collector
