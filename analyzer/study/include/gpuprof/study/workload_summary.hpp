#pragma once

// The figures a sweep keeps from a workload's JSON summary (format gpuprof.workload/1;
// a user's program may write the same keys, any of them optional).

#include <cstdint>
#include <optional>
#include <string>

namespace gpuprof::study {

struct WorkloadSummary {
  std::optional<std::int64_t> epochs;             // epochs trained
  std::optional<std::int64_t> steps;              // training steps in all
  std::optional<double> training_seconds;         // training time, validation excluded
  std::optional<double> samples_per_second;
  std::optional<double> accuracy;                 // final epoch, training
  std::optional<double> validation_accuracy;      // final epoch
  std::optional<std::string> model;
};

// nullopt when the file is missing or is not a JSON object; fields it lacks stay empty.
std::optional<WorkloadSummary> read_workload_summary(const std::string& path);
std::optional<WorkloadSummary> parse_workload_summary(const std::string& json);

}  // namespace gpuprof::study
