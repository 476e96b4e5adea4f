#include "gpuprof/analysis/data_loss.hpp"

namespace gpuprof::analysis {

std::vector<std::string> data_loss_warnings(const trace::TraceModel& model) {
  std::vector<std::string> warnings;
  for (const auto& stat : model.stats) {
    const bool dropped = stat.name.find("dropped") != std::string::npos && stat.value > 0;
    const bool flagged = stat.severity == trace::Severity::warning || stat.severity == trace::Severity::error;
    if (!dropped && !flagged) continue;
    const auto severity = flagged ? std::string(trace::to_string(stat.severity)) : std::string("warning");
    auto line = stat.name + " = " + std::to_string(stat.value);
    if (stat.detail && !stat.detail->empty()) line += " (" + *stat.detail + ")";
    warnings.push_back(line + " [" + severity + "]: totals may undercount");
  }
  return warnings;
}

}  // namespace gpuprof::analysis
