#pragma once

// The analyses a report needs, decided once for every caller: `gpuprof report` and the app's export ask
// here, so the same trace, format and sections give the same document from both.

#include <cstddef>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::report {

// `options` holds what the user chose (window, patterns, warm-up); the result adds what `format` and
// `sections` need: the nsys-style summaries, memory use, and the idle intervals (with their host activity, the
// longest `max_intervals` of each rank; 0: all) that JSON lists and `all_gaps` prints.
analysis::AnalysisOptions report_analysis_options(Format format, const std::vector<Section>& sections,
                                                  analysis::AnalysisOptions options, bool all_gaps,
                                                  std::size_t max_intervals);

}  // namespace gpuprof::report
