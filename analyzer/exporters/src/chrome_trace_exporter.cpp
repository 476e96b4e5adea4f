#include "gpuprof/exporters/chrome_trace_exporter.hpp"

#include <algorithm>
#include <filesystem>

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "json_output_file.hpp"
#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

namespace fs = std::filesystem;


// The earliest instant in the trace, so relative times stay short and non-negative.
std::int64_t earliest_start(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps) {
  std::optional<std::int64_t> earliest;
  const auto consider = [&](const std::vector<std::int64_t>& starts) {
    if (starts.empty()) return;
    const auto first = *std::min_element(starts.begin(), starts.end());
    earliest = earliest ? std::min(*earliest, first) : first;
  };
  consider(model.kernels.start_ns);
  consider(model.memcpys.start_ns);
  consider(model.memsets.start_ns);
  consider(model.api_calls.start_ns);
  consider(model.syncs.start_ns);
  consider(model.ranges.start_ns);
  for (const auto& gap : gaps) earliest = earliest ? std::min(*earliest, gap.start_ns) : gap.start_ns;
  return earliest.value_or(0);
}

std::int64_t write_document(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps,
                            JsonOutputFile& file) {
  const std::int64_t base_ns = earliest_start(model, gaps);
  const ChromeTraceLayout layout(model, gaps);
  EventWriter writer(file, base_ns);
  writer.json().StartObject();
  write_trace_header(model, base_ns, writer);
  writer.key("traceEvents");
  writer.json().StartArray();
  layout.write_metadata(writer, base_ns);
  write_host_events(model, writer);
  write_gpu_events(model, layout, writer);
  write_flow_events(model, layout, writer);
  write_gap_counters(gaps, layout, writer);
  writer.json().EndArray();
  writer.json().EndObject();
  file.Put('\n');
  return writer.events();
}

}  // namespace

ChromeTraceSummary export_chrome_trace(const ChromeTraceOptions& options) {
  check_input_file(options.input);
  refuse_writing_over_inputs({options.output}, {options.input});
  JsonOutputFile file(options.output, options.overwrite);
  // A foreign file (Kineto, Nsight, nvprof) is imported into a temporary trace first.
  importers::TemporaryStore store;
  const std::string trace_path = importers::open_as_trace(options.input, store);
  const trace::TraceModel model =
      importers::read_as_input(options.input, trace_path, [&] { return trace::load_trace_model(trace_path); });
  // Gaps are derived by the analyzer and absent from traces it has not analysed.
  const std::vector<trace::GapRow> gaps = importers::read_as_input(options.input, trace_path, [&] {
    trace::TraceFile file_tables(trace_path);
    return file_tables.database().has_table("gaps") ? file_tables.gaps() : std::vector<trace::GapRow>{};
  });
  ChromeTraceSummary summary;
  summary.output = options.output;
  summary.warnings = analysis::data_loss_warnings(model);
  summary.events = write_document(model, gaps, file);
  file.publish();
  summary.output_bytes = file.size();
  return summary;
}

}  // namespace gpuprof::exporters
