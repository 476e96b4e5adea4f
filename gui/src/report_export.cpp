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
  report::write_report(format, report_input(session), path);
}

}  // namespace gpuprof::gui
