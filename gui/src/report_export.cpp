#include "gpuprof/gui/report_export.hpp"

namespace gpuprof::gui {

report::ReportInput report_input(const Session& session) {
  report::ReportInput input;
  for (const auto& rank : session.ranks) input.ranks.push_back(rank->analysis);
  return input;
}

void export_report(const Session& session, report::Format format, const std::string& path) {
  report::write_report(format, report_input(session), path);
}

}  // namespace gpuprof::gui
