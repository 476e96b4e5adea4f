// Times the desktop app on large synthetic traces (offscreen):
//  1. open a trace of --open-events events (default 1 million) in the main
//     window: the first timeline (worker thread: load and layout; first paint
//     of the window, also alone), then the analyses (and the kernels' launch
//     details) and the window painted with them; GPUPROF_TIMINGS=1 adds each
//     stage's time;
//  2. pan and zoom frame times of the timeline rendered into a 1920x1080
//     QImage on a trace of --frame-events events (default 10 million);
//  3. the memory the GUI adds per event beyond the analyzer's model.
// Prints figures; never fails on time (targets: docs/performance.md).
//
//   gpuprof_gui_benchmark [--open-events N] [--frame-events N] [--frames N] [--only open|frames]
// Traces are generated once under the temporary folder and reused. --only runs
// one phase, so a profiler's samples come from that phase alone.

#include <malloc.h>
#include <time.h>

#include <QApplication>
#include <QTest>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// CPU time of this thread, or of the process: on a machine that other work shares, wall time also counts
// the waits for a core.
double cpu_ms(clockid_t clock) {
  timespec now{};
  clock_gettime(clock, &now);
  return static_cast<double>(now.tv_sec) * 1e3 + static_cast<double>(now.tv_nsec) / 1e6;
}
double thread_cpu_ms() { return cpu_ms(CLOCK_THREAD_CPUTIME_ID); }
double process_cpu_ms() { return cpu_ms(CLOCK_PROCESS_CPUTIME_ID); }

// Heap bytes in use now. Resident size would miss growth that reuses memory
// the loader freed, so the allocator's own count is used.
double heap_bytes() { return static_cast<double>(mallinfo2().uordblks); }

// Same name and options as gpuprof_report_bench, so both reuse one file.
std::string prepare_trace(std::int64_t events) {
  const auto path =
      (std::filesystem::temp_directory_path() / ("gpuprof_bench_" + std::to_string(events) + ".sqlite")).string();
  if (std::filesystem::exists(path)) return path;
  gpuprof::synthetic::SynthOptions options;
  options.devices = 4;
  options.steps = 200;
  options.events = events;
  const auto start = Clock::now();
  const auto summary = gpuprof::synthetic::write_synthetic_trace(path, options);
  std::printf("generated %s (%lld events) in %.1f s\n", path.c_str(), static_cast<long long>(summary.events),
              ms_since(start) / 1000);
  return path;
}

// The first timeline comes before the analyses (load_session_timeline), the docks when they end: both are
// timed, in wall time and in the process' CPU time (which other work on a shared machine does not inflate).
void open_and_show(const std::string& path) {
  gpuprof::gui::MainWindow window;
  window.resize(1920, 1080);
  window.show();
  QApplication::processEvents();
  const auto start = Clock::now();
  const double cpu_start = process_cpu_ms();
  window.open_files({QString::fromStdString(path)});
  while (window.loading() && !window.timeline()->session()) QTest::qWait(1);
  const double ready = ms_since(start);
  const double paint_cpu_start = thread_cpu_ms();
  window.grab();  // paints the whole window once: the timeline, the docks still empty
  const double first = ms_since(start), first_cpu = process_cpu_ms() - cpu_start;
  const double paint_cpu = thread_cpu_ms() - paint_cpu_start;
  while (window.loading()) QTest::qWait(1);
  const double loaded = ms_since(start);
  window.grab();  // again with the analyses: steps and gaps on the timeline, charts, tables
  const double shown = ms_since(start), shown_cpu = process_cpu_ms() - cpu_start;
  if (!window.session()) {
    std::printf("open: failed: %s\n", window.error_text().toStdString().c_str());
    return;
  }
  std::printf("open %zu events: first timeline shown %.0f ms (%.0f ms CPU; of which its first paint %.0f ms, "
              "%.0f ms CPU); analysed %.0f ms, shown %.0f ms (%.0f ms CPU)\n",
              window.session()->event_count(), first, first_cpu, first - ready, paint_cpu, loaded, shown, shown_cpu);
  if (gpuprof::trace::stage_timings_enabled()) {
    const auto text =
        gpuprof::trace::format_stage_timings(gpuprof::trace::recorded_stage_timings(), gpuprof::trace::process_usage());
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
}

struct Percentiles {
  double p50 = 0, p95 = 0, max = 0;
};

Percentiles percentiles(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  auto at = [&](double q) { return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1))]; };
  return {at(0.5), at(0.95), values.back()};
}

// A user session: zoom in step by step around random points, pan, zoom out, fit.
void frame_times(const std::shared_ptr<const gpuprof::gui::Session>& session, int frames) {
  gpuprof::gui::TimelineView view;
  view.resize(1920, 1080);
  view.set_session(session);
  std::mt19937 random(7);
  std::uniform_real_distribution<double> where(0.0, 1.0);
  std::vector<double> times, cpu_times;
  view.render_image({1920, 1080});  // first frame: fonts and caches
  for (int frame = 0; frame < frames; ++frame) {
    switch (frame % 20) {
      case 0: view.fit_all(); break;
      case 1: case 2: case 3: case 4: case 5: case 6: case 7: case 8: view.zoom_by(2.0); break;
      case 9: case 10: case 11: case 12: view.pan_by_fraction(where(random) - 0.5); break;
      default: view.zoom_by(0.5); break;
    }
    if (frame % 20 == 1) view.pan_by_fraction(where(random) - 0.5);
    const auto start = Clock::now();
    const double cpu_start = thread_cpu_ms();
    const QImage image = view.render_image({1920, 1080});
    cpu_times.push_back(thread_cpu_ms() - cpu_start);
    times.push_back(ms_since(start));
  }
  const auto p = percentiles(times), cpu = percentiles(cpu_times);
  std::printf("frames (%d, 1920x1080, pan and zoom, %zu events): p50 %.2f ms, p95 %.2f ms, max %.2f ms; "
              "CPU p50 %.2f ms, p95 %.2f ms, max %.2f ms\n",
              frames, session->event_count(), p.p50, p.p95, p.max, cpu.p50, cpu.p95, cpu.max);
}

// What the GUI keeps per event on top of the model: timeline rows, host lane
// indexes (counted by their sizes), and the heap growth while the timeline,
// the correlation index and the per-name kernel categories are built.
void memory_per_event(const std::string& path) {
  const std::atomic<bool> cancel{false};
  const auto session = gpuprof::gui::load_session({path}, {}, cancel);
  const auto& rank = *session->ranks[0];
  const double events = static_cast<double>(session->event_count());
  const double before = heap_bytes();
  const double cpu_before = thread_cpu_ms();
  auto timeline = gpuprof::gui::build_rank_timeline(rank.model);
  const double timeline_cpu = thread_cpu_ms() - cpu_before;
  gpuprof::analysis::CorrelationIndex correlations(rank.model.api_calls);
  const auto categories = gpuprof::analysis::KernelClassifier().classify_names(rank.model);
  const double grown = heap_bytes() - before;
  std::printf("memory: timeline structures %.2f bytes/event (counted); heap growth for timeline + correlation "
              "index + kernel categories %.2f bytes/event; %zu events\n",
              static_cast<double>(timeline.memory_bytes()) / events, grown / events, session->event_count());
  // The two steps of opening that run side by side, each alone (the analyses use threads of their own).
  const auto analysis_start = Clock::now();
  const double analysis_cpu = process_cpu_ms();
  const auto parts = gpuprof::job::summarize_rank_parts(rank.model, {}, 0);
  std::printf("alone: build_rank_timeline %.0f ms CPU; summarize_rank_parts %.0f ms wall, %.0f ms CPU\n", timeline_cpu,
              ms_since(analysis_start), process_cpu_ms() - analysis_cpu);
}

std::string text_option(int argc, char** argv, const std::string& name, const std::string& fallback) {
  for (int i = 1; i + 1 < argc; ++i) {
    if (argv[i] == name) return argv[i + 1];
  }
  return fallback;
}

std::int64_t option(int argc, char** argv, const std::string& name, std::int64_t fallback) {
  const auto text = text_option(argc, argv, name, "");
  return text.empty() ? fallback : std::stoll(text);
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  const auto open_events = option(argc, argv, "--open-events", 1'000'000);
  const auto frame_events = option(argc, argv, "--frame-events", 10'000'000);
  const int frames = static_cast<int>(option(argc, argv, "--frames", 200));
  const auto only = text_option(argc, argv, "--only", "");
  if (only != "frames") {
    const auto small = prepare_trace(open_events);
    open_and_show(small);
    memory_per_event(small);
  }
  if (only == "open") return 0;
  const auto large = prepare_trace(frame_events);
  const std::atomic<bool> cancel{false};
  const auto start = Clock::now();
  std::vector<std::pair<std::string, Clock::time_point>> stages;
  const auto session = gpuprof::gui::load_session({large}, {}, cancel, [&](const gpuprof::gui::LoadProgress& step) {
    // Loading reports its rows within its stage too: a stage starts where its name first appears.
    if (stages.empty() || stages.back().first != step.stage) stages.emplace_back(step.stage, Clock::now());
  });
  std::printf("load_session %zu events: %.0f ms (", session->event_count(), ms_since(start));
  // Each progress report starts a stage: its time runs to the next report.
  for (std::size_t i = 0; i + 1 < stages.size(); ++i) {
    const double ms = std::chrono::duration<double, std::milli>(stages[i + 1].second - stages[i].second).count();
    std::printf("%s%s %.0f ms", i ? ", " : "", stages[i].first.c_str(), ms);
  }
  std::printf(")\n");
  frame_times(session, frames);
  const auto& rank = *session->ranks[0];
  std::printf("memory (large): timeline structures %.2f bytes/event (counted)\n",
              static_cast<double>(rank.timeline.memory_bytes()) / static_cast<double>(session->event_count()));
  return 0;
}
