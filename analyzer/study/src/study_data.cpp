#include "gpuprof/study/study_data.hpp"

namespace gpuprof::study {

const char* to_string(RunKind kind) { return kind == RunKind::profiled ? "profiled" : "calibration"; }

const char* to_string(RunStatus status) {
  switch (status) {
    case RunStatus::running: return "running";
    case RunStatus::ok: return "ok";
    case RunStatus::failed: return "failed";
    case RunStatus::skipped: return "skipped";
  }
  return "running";
}

std::optional<RunKind> run_kind_from_string(std::string_view text) {
  if (text == "profiled") return RunKind::profiled;
  if (text == "calibration") return RunKind::calibration;
  return std::nullopt;
}

std::optional<RunStatus> run_status_from_string(std::string_view text) {
  for (const auto status : {RunStatus::running, RunStatus::ok, RunStatus::failed, RunStatus::skipped}) {
    if (text == to_string(status)) return status;
  }
  return std::nullopt;
}

}  // namespace gpuprof::study
