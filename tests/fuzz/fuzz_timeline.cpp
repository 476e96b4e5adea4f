// The app's model building: the fuzz bytes as a trace file through what the
// app does after "Open" (load_session: load, analyse, build the timeline rows)
// and the layout of every mode, with a time axis fitted to the whole session
// (issue 27: a span near INT64_MAX froze the app). A TraceError is the
// expected answer to a damaged file; anything else is a finding.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdio>

#include "fuzz_scratch.hpp"
#include "gpuprof/gui/session.hpp"
#include "gpuprof/gui/time_axis.hpp"
#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace {

void lay_out(const gpuprof::gui::Session& session) {
  for (const bool idle_devices : {false, true}) {
    for (const bool raw_clocks : {false, true}) {
      gpuprof::gui::LayoutOptions options;
      options.show_idle_devices = idle_devices;
      options.raw_clocks = raw_clocks;
      const auto layout = gpuprof::gui::layout_timeline(session, options);
      gpuprof::gui::TimeAxis axis;
      axis.set_width(1000);
      axis.set_limits(layout.start_ns, layout.end_ns);
      axis.fit_all();
      for (std::size_t rank = 0; rank < session.ranks.size(); ++rank) {
        const auto rank_axis = layout.rank_axis(axis, rank);
        (void)rank_axis.x_of(layout.end_ns);
        (void)rank_axis.ns_of(500.0);
      }
      for (const int scroll_y : {0, layout.height / 2, layout.height})
        (void)layout.row_at(layout.height / 2, scroll_y);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuprof::fuzz::ScratchFolder folder;
  const std::string input = folder.file("input.sqlite");
  gpuprof::fuzz::write_input(input, data, size);
  try {
    const std::atomic<bool> cancel{false};
    const auto session = gpuprof::gui::load_session({input}, {}, cancel);
    lay_out(*session);
  } catch (const gpuprof::TraceError& error) {
    if (gpuprof::fuzz::verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
  }
  return 0;
}
