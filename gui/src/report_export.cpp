#include "gpuprof/gui/report_export.hpp"

namespace gpuprof::gui {

report::ReportInput report_input(const Session& session) {
  // The same input `gpuprof report` builds: every rank's analysis and, for a job, its clocks and stragglers.
  return report::report_input(job::JobAnalysis(session.job));
}

std::string summary_text(const Session& session) {
  auto input = report_input(session);
  input.sections = {report::Section::summary};
  return report::render(report::Format::text, input);
}

void export_report(const Session& session, report::Format format, const std::string& path) {
  // The file dialog already asked about replacing an existing file; the traces themselves are never replaced.
  report::WriteOptions options;
  for (const auto& rank : session.job.ranks) options.inputs.push_back(rank.input);
  report::write_report(format, report_input(session), path, options);
}

}  // namespace gpuprof::gui
