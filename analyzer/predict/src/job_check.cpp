#include "gpuprof/predict/job_check.hpp"

#include <fmt/format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <cmath>

#include "gpuprof/units/statistics.hpp"
#include "gpuprof/report/json_fields.hpp"

#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/predict/link_choice.hpp"
#include "gpuprof/predict/prediction_traces.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/table_rendering.hpp"
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

std::string render_job_check(const JobCheck& check, bool json) {
  if (json) {
    using report::json::field;
    rapidjson::StringBuffer buffer;
    rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
    w.StartObject();
    field(w, "format", "gpuprof.predict-check/1");
    w.Key("ranks"), w.StartArray();
    for (const auto& c : check.ranks) {
      w.StartObject();
      field(w, "trace", c.trace);
      field(w, "link", c.link_name);
      field(w, "measured_step_ns", c.measured_step_ns);
      field(w, "predicted_step_ns", c.predicted_step_ns);
      field(w, "measured_exposed_share", c.measured_exposed_share);
      field(w, "predicted_exposed_share", c.predicted_exposed_share);
      field(w, "sized_kernels", std::int64_t{c.sized_kernels});
      field(w, "comm_kernels", std::int64_t{c.comm_kernels});
      field(w, "partner_ranks", std::int64_t{c.partner_ranks});
      w.EndObject();
    }
    w.EndArray();
    w.Key("notes"), w.StartArray();
    for (const auto& note : check.notes) report::json::string(w, note);
    w.EndArray();
    w.EndObject();
    return std::string(buffer.GetString()) + "\n";
  }
  std::string out = "gpuprof predict --check: each rank's communication replaced by the link model\n\n";
  out += fmt::format("{:<40} {:<10} {:>11} {:>11} {:>7} {:>17} {:>9}\n", "rank trace", "link", "step", "predicted",
                     "error", "exposed comm %", "sized");
  std::vector<double> errors, points;
  for (const auto& c : check.ranks) {
    // A path wider than its column gets a line of its own, the figures below it: the table stays within 120.
    constexpr std::size_t kTraceColumn = 40;
    if (c.trace.size() > kTraceColumn) out += c.trace + "\n";
    out += fmt::format("{:<40} {:<10} {:>9.3f}ms {:>9.3f}ms {:>+6.1f}% {:>7.1f} / {:>6.1f} {:>4}/{:<4}\n", c.trace.size() > kTraceColumn ? "" : c.trace,
                       c.link_name, c.measured_step_ns / 1e6, c.predicted_step_ns / 1e6, 100 * c.step_error(),
                       100 * c.measured_exposed_share, 100 * c.predicted_exposed_share, c.sized_kernels,
                       c.comm_kernels);
    errors.push_back(std::abs(c.step_error()));
    points.push_back(100 * std::abs(c.predicted_exposed_share - c.measured_exposed_share));
  }
  out += "\n" + report::wrap_text("", "    ",
                                   fmt::format("median |step error| {:.1f} %, median exposed-communication difference "
                                               "{:.1f} points over {} rank(s); communication kernels the trace does "
                                               "not size keep their measured time",
                                               100 * units::median(errors), units::median(points), check.ranks.size()),
                                   report::kTerminalWidth);
  for (const auto& note : check.notes) out += report::wrap_text("note: ", "    ", note, report::kTerminalWidth);
  return out;
}

}  // namespace gpuprof::predict
