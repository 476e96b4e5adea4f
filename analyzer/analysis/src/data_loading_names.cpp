#include "gpuprof/analysis/data_loading_names.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace gpuprof::analysis {
namespace {

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

}  // namespace

bool is_data_loading_name(std::string_view name) {
  std::string lower(name);
  std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower == "data" || contains(lower, "dataloader") || contains(lower, "data_loader") ||
         contains(lower, "data loading") || contains(lower, "load_batch");
}

}  // namespace gpuprof::analysis
