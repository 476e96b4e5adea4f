#pragma once

// `gpuprof predict --check JOB` (issue 37): the leave-communication-out check on a user's own multi-GPU job,
// so the link model can be checked on their cluster before a prediction from it is trusted. Each rank's
// communication kernels are replaced by the link's prediction from their collectives' sizes, with the job's
// other ranks as partners (a collective moves data once its last member has arrived), and the replay gives
// the step and the exposed communication per rank against the measured ones.

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/predict/comm_validation.hpp"
#include "gpuprof/progress/progress.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::predict {

struct JobCheck {
  std::vector<CommCase> ranks;
  std::vector<std::string> notes;  // the link chosen from the GPU, when no --link
};

// `paths`: the job's traces or folders (job::expand_inputs); `link`: a preset name, empty to choose it from
// each rank's GPU. Throws TraceError::bad_input naming the file for a rank without steps, GPU work or
// communication kernels, or an unknown GPU without `link`.
JobCheck check_job(const std::vector<std::string>& paths, const std::string& link,
                   const std::vector<std::string>& link_files, const analysis::AnalysisOptions& options,
                   const progress::ProgressCallback& progress = {});

// One table, a row per rank (measured and predicted step, error, exposed communication share, communication
// kernels sized), a summary line and the notes, in any format (job_check_writer.cpp); json:
// `gpuprof.predict-check/1`.
std::string render_job_check(report::Format format, const JobCheck& check);

}  // namespace gpuprof::predict
