#include "gpuprof/report/report_options.hpp"

#include <algorithm>
#include <limits>

namespace gpuprof::report {

analysis::AnalysisOptions report_analysis_options(Format format, const std::vector<Section>& sections,
                                                  analysis::AnalysisOptions options, bool all_gaps,
                                                  std::size_t max_intervals) {
  options.keep_idle_intervals = all_gaps;  // --gaps all lists every idle interval too
  // JSON lists the idle intervals (the longest max_intervals of them).
  if (format == Format::json && std::find(sections.begin(), sections.end(), Section::gaps) != sections.end()) {
    options.keep_idle_intervals = true;
    // A rank's longest max_intervals hold every row of that rank the JSON lists (0: all of them).
    options.interval_host_activity = max_intervals == 0 ? std::numeric_limits<std::size_t>::max() : max_intervals;
  }
  options.host_summaries = needs_host_summaries(sections);
  options.memory_use = needs_memory_use(sections);
  return options;
}

}  // namespace gpuprof::report
