#include "gpuprof/exporters/chrome_trace_exporter.hpp"

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/job/rank_identity.hpp"
#include "gpuprof/progress/counted_loading.hpp"
#include "gpuprof/progress/stage_counter.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "job_chrome_trace.hpp"
#include "json_output_file.hpp"
#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

// A lone file keeps the rank its meta gives (none when it has none), unless --ranks names one.
std::optional<std::int32_t> rank_of(const std::string& input, const std::string& trace_path,
                                    const trace::TraceModel& model, const std::vector<std::int32_t>& given) {
  if (given.empty()) return model.rank();
  return importers::read_as_input(input, trace_path, [&] {
    return job::assign_ranks({job::read_identity(input, trace_path)}, given).ranks.front();
  });
}

ChromeTraceSummary export_single_trace(const std::string& input, const ChromeTraceOptions& options,
                                       JsonOutputFile& file) {
  const auto& ranks = options.ranks;
  // A foreign file (Kineto, Nsight, nvprof) is imported into a temporary trace first.
  importers::TemporaryStore store;
  const std::string trace_path = importers::open_as_trace(input, store, options.progress);
  const trace::TraceModel model = importers::read_as_input(
      input, trace_path, [&] { return progress::load_counted(trace_path, {}, options.progress); });
  // Gaps are derived by the analyzer and absent from traces it has not analysed.
  const std::vector<trace::GapRow> gaps = importers::read_as_input(input, trace_path, [&] {
    trace::TraceFile file_tables(trace_path);
    return file_tables.database().has_table("gaps") ? file_tables.gaps() : std::vector<trace::GapRow>{};
  });
  const auto rank = rank_of(input, trace_path, model, ranks);
  auto tracks = trace_tracks(model, gaps);
  auto placement = single_trace_placement(tracks, rank);
  const ChromeTraceLayout layout(model, std::move(tracks), std::move(placement));
  std::optional<std::int64_t> base_ns = earliest_start(model);
  for (const auto& gap : gaps) base_ns = base_ns ? std::min(*base_ns, gap.start_ns) : gap.start_ns;
  EventWriter writer(file, base_ns.value_or(0));
  progress::StageCounter writing(options.progress, "write", static_cast<std::int64_t>(model.event_count()), "events");
  if (writing.active()) writer.count_rows_in(&writing);
  writer.json().StartObject();
  write_trace_header(trace_header(model, rank), writer.origin_ns(), writer);
  writer.key("traceEvents");
  writer.json().StartArray();
  layout.write_metadata(writer);
  std::int64_t next_flow_id = 1;
  write_rank_events(model, gaps, layout, next_flow_id, writer);
  writer.flush_progress();
  writer.json().EndArray();
  writer.json().EndObject();
  file.Put('\n');
  ChromeTraceSummary summary;
  for (auto& warning : analysis::data_loss_warnings(model)) summary.warnings.emplace_back(input, std::move(warning));
  summary.events = writer.events();
  return summary;
}

}  // namespace

ChromeTraceSummary export_chrome_trace(const ChromeTraceOptions& options) {
  const auto inputs = job::expand_inputs(options.inputs);
  for (const auto& input : inputs) check_input_file(input);
  refuse_writing_over_inputs({options.output}, inputs);
  JsonOutputFile file(options.output, options.overwrite);
  auto summary = inputs.size() == 1 && options.inputs.size() == 1 && inputs.front() == options.inputs.front()
                     ? export_single_trace(inputs.front(), options, file)
                     : export_job(inputs, options, file);
  summary.output = options.output;
  file.publish();
  summary.output_bytes = file.size();
  return summary;
}

}  // namespace gpuprof::exporters
