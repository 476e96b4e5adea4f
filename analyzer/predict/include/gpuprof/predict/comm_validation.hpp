#pragma once

// "Leave communication out" (issue 29, Validation): on a rank of a real
// multi-rank trace, the communication kernels are taken out of the replay and
// predicted back from the collectives' sizes with the link of the trace's
// hardware; the replay then predicts the step. Measured and predicted step and
// exposed-communication share use the same rules (steady windows of the
// replayed GPU). Kernels whose collective the trace does not size keep their
// measured time, and the case says how much of the communication time was
// predicted.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

struct CommCase {
  std::string trace, device_name, link_name;
  std::string group_source;  // where the group sizes came from
  std::int64_t partner_ranks = 0;  // other ranks whose arrival times bound each collective
  std::int64_t comm_kernels = 0, sized_kernels = 0;  // in the steady windows
  double sized_share = 0;  // of the measured communication kernel time in the steady windows
  double measured_step_ns = 0, predicted_step_ns = 0;
  double measured_exposed_share = 0, predicted_exposed_share = 0;  // exposed communication / steady span
  double measured_comm_ns = 0, predicted_comm_ns = 0;  // communication kernel time per steady step (waits included)

  // Without the partners' arrivals (each collective its transfer alone).
  double transfer_only_step_ns = 0, transfer_only_exposed_share = 0;

  double step_error() const { return measured_step_ns > 0 ? predicted_step_ns / measured_step_ns - 1.0 : 0.0; }
};

// `partners`: the other ranks of the job, when the data has them (one clock): a collective cannot move
// data before its last partner has arrived, so each predicted collective starts no earlier than the latest
// recorded start of the same collective (name and ordinal) among them. Without partners the prediction is
// the transfer alone. Throws TraceError::bad_input for a trace without steps or GPU work.
CommCase leave_communication_out(const trace::TraceModel& model, const LinkProfile& link,
                                 const analysis::AnalysisOptions& options,
                                 const std::vector<const trace::TraceModel*>& partners = {});

}  // namespace gpuprof::predict
