#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

ReportInput report_input(job::JobAnalysis&& job) {
  ReportInput input;
  for (auto& rank : job.ranks) input.ranks.push_back(std::move(rank.analysis));
  if (input.ranks.size() > 1) input.job = JobSections{std::move(job.clocks), std::move(job.stragglers), std::move(job.notices),
                              std::move(job.peer_waits)};
  return input;
}

}  // namespace gpuprof::report
