#pragma once

#include <string>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// The job-level notices (clock alignment fallbacks), each formatted by `line`.
template <typename LineFormatter>
std::string job_notes(const ReportInput& input, LineFormatter&& line) {
  std::string out;
  if (!input.job) return out;
  for (const auto& notice : input.job->notices) out += line(notice);
  return out;
}

}  // namespace gpuprof::report
