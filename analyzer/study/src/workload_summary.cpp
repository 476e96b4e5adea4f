#include "gpuprof/study/workload_summary.hpp"

#include <rapidjson/document.h>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::study {
namespace {

using Value = rapidjson::Value;

std::optional<double> number(const Value& object, const char* key) {
  if (!object.IsObject()) return std::nullopt;
  const auto found = object.FindMember(key);
  if (found == object.MemberEnd() || !found->value.IsNumber()) return std::nullopt;
  return found->value.GetDouble();
}

std::optional<std::int64_t> integer(const Value& object, const char* key) {
  if (!object.IsObject()) return std::nullopt;
  const auto found = object.FindMember(key);
  if (found == object.MemberEnd() || !found->value.IsInt64()) return std::nullopt;
  return found->value.GetInt64();
}

const Value* member(const Value& object, const char* key) {
  if (!object.IsObject()) return nullptr;
  const auto found = object.FindMember(key);
  return found == object.MemberEnd() ? nullptr : &found->value;
}

// Steps and epochs come from the per-epoch list when there is one, so a
// program that stops early is counted by what it did, not what it planned.
void read_epochs(const Value& document, WorkloadSummary& summary) {
  const Value* epochs = member(document, "epochs");
  if (epochs == nullptr || !epochs->IsArray()) return;
  std::int64_t steps = 0;
  bool all_steps = true;
  for (const auto& epoch : epochs->GetArray()) {
    const auto count = integer(epoch, "steps");
    if (count) steps += *count; else all_steps = false;
  }
  summary.epochs = static_cast<std::int64_t>(epochs->Size());
  if (all_steps && epochs->Size() > 0) summary.steps = steps;
}

}  // namespace

std::optional<WorkloadSummary> parse_workload_summary(const std::string& json) {
  rapidjson::Document document;
  // Iterative: a summary line nested absurdly deep must not overflow the stack.
  document.Parse<rapidjson::kParseIterativeFlag>(json.c_str(), json.size());
  if (document.HasParseError() || !document.IsObject()) return std::nullopt;
  WorkloadSummary summary;
  read_epochs(document, summary);
  if (const Value* configuration = member(document, "configuration")) {
    if (!summary.steps) summary.steps = integer(*configuration, "steps");
    if (const Value* model = member(*configuration, "model"); model != nullptr && model->IsString()) {
      summary.model = model->GetString();
    }
  }
  summary.training_seconds = number(document, "training_seconds");
  summary.samples_per_second = number(document, "samples_per_second");
  if (const Value* final_epoch = member(document, "final")) {
    summary.accuracy = number(*final_epoch, "train_accuracy");
    summary.validation_accuracy = number(*final_epoch, "validation_accuracy");
  }
  if (!summary.accuracy) summary.accuracy = number(document, "accuracy");
  if (!summary.validation_accuracy) summary.validation_accuracy = number(document, "validation_accuracy");
  return summary;
}

std::optional<WorkloadSummary> read_workload_summary(const std::string& path) {
  // The program under study writes this file: a FIFO there blocked the sweep, a device fed it without end.
  constexpr std::size_t kMaxSummaryBytes = std::size_t{16} << 20;
  try {
    return parse_workload_summary(read_text_input(path, "workload summary", {kMaxSummaryBytes, kMaxSummaryBytes}));
  } catch (const TraceError&) {
    return std::nullopt;  // the run's time then comes from the wall clock, and its time source says so
  }
}

}  // namespace gpuprof::study
