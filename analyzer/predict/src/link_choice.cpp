#include "gpuprof/predict/link_choice.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cctype>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return text;
}

bool has(const std::string& text, std::string_view word) { return text.find(word) != std::string::npos; }

// The name as the driver gives it ("NVIDIA A100-SXM4-40GB", "Tesla V100-PCIE-16GB", "NVIDIA GeForce RTX 4090").
struct Rule {
  std::vector<std::string_view> all;  // every word in the name
  std::string_view none;              // and not this one (empty: no exclusion)
  const char* preset;
};

// First match wins: a PCIe card of a family that is otherwise sold as SXM goes to its PCIe generation.
const std::vector<Rule>& rules() {
  static const std::vector<Rule> all = {
      {{"h800"}, "", "h800"},
      {{"b200"}, "", "nvlink5"},
      {{"mi300"}, "", "xgmi"},
      {{"h100", "pcie"}, "", "pcie5"},
      {{"h100"}, "", "nvlink4"},
      {{"h200", "nvl"}, "", "pcie5"},
      {{"h200"}, "", "nvlink4"},
      {{"a100", "pcie"}, "", "pcie4"},
      {{"a100"}, "", "nvlink3"},
      {{"v100", "pcie"}, "", "pcie3"},
      {{"v100"}, "", "nvlink2"},
      // Consumer and workstation cards: no peer access by default (the `pcie*` presets are measured without it).
      {{"rtx 50"}, "", "pcie5"},
      {{"rtx 40"}, "", "pcie4"},
      {{"rtx 30"}, "", "pcie4"},
      {{"geforce"}, "", "pcie3"},
      {{"titan"}, "", "pcie3"},
      {{"tesla m60"}, "", "pcie3-m60"},  // measured on Azure's M60 machines
      {{"tesla m"}, "", "pcie3"},
      {{"tesla p"}, "", "pcie3"},
      {{"tesla k"}, "", "pcie3"},
      {{"tesla t4"}, "", "pcie3"},
      {{"l40"}, "", "pcie4"},
      {{"nvidia l4"}, "", "pcie4"},
      {{"nvidia a10"}, "a100", "pcie4"},
      {{"nvidia a40"}, "", "pcie4"},
  };
  return all;
}

}  // namespace

std::string preset_for_gpu_name(const std::string& name) {
  const auto text = lower(name);
  for (const auto& rule : rules())
    if (std::all_of(rule.all.begin(), rule.all.end(), [&](auto word) { return has(text, word); }) &&
        (rule.none.empty() || !has(text, rule.none)))
      return rule.preset;
  return {};
}

LinkProfile link_for_device(const trace::TraceModel& model, std::int32_t device, const std::vector<std::string>& files,
                            const std::string& option_prefix, std::vector<std::string>& notes) {
  std::string name;
  for (const auto& row : model.devices)
    if (row.id == device && row.name) name = *row.name;
  const auto option = fmt::format("--{}link", option_prefix);
  if (name.empty())
    throw TraceError::bad_input(model.path, fmt::format("no {} and the trace does not name GPU {}: give {} ({})",
                                                        option, device, option, fmt::join(link_preset_names(), ", ")));
  const auto preset = preset_for_gpu_name(name);
  if (preset.empty())
    throw TraceError::bad_input(model.path,
                                fmt::format("no {} and no preset is known for the trace's GPU '{}': give {} ({}) "
                                            "or --link-file with your all_reduce_perf output",
                                            option, name, option, fmt::join(link_preset_names(), ", ")));
  notes.push_back(fmt::format("link {} chosen from the trace's GPU '{}' (no {}; give one if the N GPUs are linked "
                              "otherwise)",
                              preset, name, option));
  return with_link_files(link_preset(preset), files);
}

}  // namespace gpuprof::predict
