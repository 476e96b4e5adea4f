#include "gpuprof/gui/report_export.hpp"

#include "gpuprof/report/report_options.hpp"

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

void export_report(const Session& session, report::Format format, const std::string& path,
                   const std::vector<report::Section>& sections) {
  // The open session was analysed for the views (host summaries left for their dock, every idle interval
  // kept): the document is analysed again as `gpuprof report` analyses it for this format and these sections.
  const auto options =
      report::report_analysis_options(format, sections, session.options, false, report::kDefaultMaxIntervals);
  auto job = job::analyze_job(session.paths(), {.analysis = options, .threads = 2});
  // The file dialog already asked about replacing an existing file; the traces themselves are never replaced.
  report::WriteOptions write_options;
  for (const auto& rank : job.ranks) write_options.inputs.push_back(rank.input);
  auto input = report::report_input(std::move(job));
  input.sections = sections;
  report::write_report(format, input, path, write_options);
}

}  // namespace gpuprof::gui
