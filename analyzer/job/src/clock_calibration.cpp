#include "gpuprof/job/clock_calibration.hpp"

#include <rapidjson/document.h>

namespace gpuprof::job {

std::vector<CalibrationPair> parse_clock_calibration(const std::optional<std::string>& text) {
  if (!text) return {};
  rapidjson::Document document;
  // The text comes from the file: iterative, so deep nesting cannot overflow the stack.
  document.Parse<rapidjson::kParseIterativeFlag>(text->c_str());
  if (document.HasParseError() || !document.IsArray()) return {};
  std::vector<CalibrationPair> pairs;
  for (const auto& entry : document.GetArray()) {
    if (!entry.IsArray() || entry.Size() != 2 || !entry[0].IsInt64() || !entry[1].IsInt64()) return {};
    pairs.push_back({entry[0].GetInt64(), entry[1].GetInt64()});
  }
  return pairs;
}

}  // namespace gpuprof::job
