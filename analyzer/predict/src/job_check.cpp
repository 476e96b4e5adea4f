#include "gpuprof/predict/job_check.hpp"

#include <algorithm>

#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/predict/link_choice.hpp"
#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

std::int32_t first_device(const trace::TraceModel& model) {
  const auto devices = model.device_ids();
  return devices.empty() ? 0 : devices.front();
}

}  // namespace

JobCheck check_job(const std::vector<std::string>& paths, const std::string& link,
                   const std::vector<std::string>& link_files, const analysis::AnalysisOptions& options,
                   const progress::ProgressCallback& progress) {
  std::vector<trace::TraceModel> ranks;
  for (const auto& path : job::expand_inputs(paths)) ranks.push_back(load_prediction_trace(path, progress));
  JobCheck check;
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    std::vector<const trace::TraceModel*> partners;
    for (std::size_t p = 0; p < ranks.size(); ++p)
      if (p != r) partners.push_back(&ranks[p]);
    std::vector<std::string> notes;
    const auto profile = link.empty() ? link_for_device(ranks[r], first_device(ranks[r]), link_files, "", notes)
                                      : with_link_files(link_preset(link), link_files);
    for (const auto& note : notes)
      if (std::find(check.notes.begin(), check.notes.end(), note) == check.notes.end()) check.notes.push_back(note);
    auto result = leave_communication_out(ranks[r], profile, options, partners);
    if (result.comm_kernels == 0)
      throw TraceError::bad_input(ranks[r].path, "no communication kernels in its steady steps: --check replaces "
                                                 "a multi-GPU job's communication by the link model");
    check.ranks.push_back(std::move(result));
  }
  return check;
}

}  // namespace gpuprof::predict
