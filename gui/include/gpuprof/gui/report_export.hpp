#pragma once

// Exports the open session's report through the analyzer's report writers,
// so the file matches `gpuprof report` on the same traces.

#include <string>

#include "gpuprof/gui/session.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::gui {

report::ReportInput report_input(const Session& session);
// Throws TraceError when writing fails. CSV to a folder (or a path ending in '/') writes one file per table.
void export_report(const Session& session, report::Format format, const std::string& path);
// The report's summary as `gpuprof report --sections summary` prints it, for the Summary panel.
std::string summary_text(const Session& session);

}  // namespace gpuprof::gui
