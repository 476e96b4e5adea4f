#include "gpuprof/analysis/run_facts.hpp"

#include <charconv>

namespace gpuprof::analysis {
namespace {

std::optional<std::string> fact_from_marks(const trace::TraceModel& model, std::string_view key) {
  std::optional<std::string> found;
  for (std::size_t i = 0; i < model.ranges.size(); ++i) {
    const auto name = model.string(model.ranges.name[i]);
    if (!name.starts_with(kRunFactMarkPrefix)) continue;
    const auto assignment = name.substr(kRunFactMarkPrefix.size());
    const auto equals = assignment.find('=');
    if (equals == std::string_view::npos || assignment.substr(0, equals) != key) continue;
    found = std::string(assignment.substr(equals + 1));
  }
  return found;
}

}  // namespace

std::optional<std::string> run_fact(const trace::TraceModel& model, std::string_view key) {
  if (const auto meta = model.meta.find(std::string(key)); meta != model.meta.end()) return meta->second;
  return fact_from_marks(model, key);
}

std::optional<std::int64_t> positive_run_fact(const trace::TraceModel& model, std::string_view key) {
  const auto text = run_fact(model, key);
  if (!text) return std::nullopt;
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value <= 0) return std::nullopt;
  return value;
}

}  // namespace gpuprof::analysis
