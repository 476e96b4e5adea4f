#pragma once

// Exports the open session's report through the analyzer's report writers,
// so the file matches `gpuprof report` on the same traces.

#include <string>
#include <vector>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::gui {

report::ReportInput report_input(const Session& session);
// `gpuprof report` of the session's traces with the session's analysis options, in `format`, of `sections`:
// the traces are analysed again for the document (report::report_analysis_options). Throws TraceError when
// reading or writing fails. CSV to a folder (or a path ending in '/') writes one file per table.
void export_report(const Session& session, report::Format format, const std::string& path,
                   const std::vector<report::Section>& sections = report::all_sections());
// The report's summary as `gpuprof report --sections summary` prints it, for the Summary panel.
std::string summary_text(const Session& session);

}  // namespace gpuprof::gui
