// Times `gpuprof report` on a large synthetic trace: load, analyses, render.
// Prints the figures; never fails on time (targets: docs/performance.md).
//
//   gpuprof_report_bench [TRACE] [--events N]
// Without TRACE, a trace of N events (default 10 million) is generated once
// under the temporary folder and reused by later runs.

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/rank_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double peak_resident_mib() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // Linux reports KiB
}

std::string prepare_trace(std::int64_t events) {
  const auto path = (std::filesystem::temp_directory_path() / fmt::format("gpuprof_bench_{}.sqlite", events)).string();
  if (std::filesystem::exists(path)) return path;
  gpuprof::synthetic::SynthOptions options;
  options.devices = 4;
  options.steps = 200;
  options.events = events;
  const auto start = Clock::now();
  const auto summary = gpuprof::synthetic::write_synthetic_trace(path, options);
  fmt::print("generated {} ({} events) in {:.2f} s\n", path, summary.events, seconds_since(start));
  return path;
}

// Each analysis on its own, to see where the analysis time goes.
void print_phases(const gpuprof::trace::TraceModel& model) {
  namespace analysis = gpuprof::analysis;
  const analysis::AnalysisOptions options;
  auto start = Clock::now();
  const auto categories = analysis::KernelClassifier().classify_names(model);
  const auto activity = analysis::build_device_activity(model, categories);
  fmt::print("  device activity  {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const analysis::CorrelationIndex correlations(model.api_calls);
  fmt::print("  correlations     {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto steps = analysis::find_steps(model, options, correlations).steps;
  fmt::print("  steps            {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const gpuprof::idle::HostCauses host(model, correlations);
  fmt::print("  host causes      {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto breakdown = analysis::compute_breakdown(activity, steps, true, &host);
  fmt::print("  breakdown, idle  {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto gaps = analysis::find_batch_gaps(breakdown.steps);
  fmt::print("  gaps             {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto transfers = analysis::analyze_transfers(model, activity);
  fmt::print("  transfers        {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto kernels = analysis::summarize_kernels(model, categories);
  fmt::print("  kernel summary   {:.3f} s\n", seconds_since(start));
  start = Clock::now();
  const auto launches = analysis::analyze_launches(model, correlations);
  fmt::print("  launches         {:.3f} s\n", seconds_since(start));
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  std::int64_t events = 10'000'000;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--events" && i + 1 < argc) events = std::atoll(argv[++i]);
    else path = argument;
  }
  if (path.empty()) path = prepare_trace(events);

  const auto total_start = Clock::now();
  auto start = Clock::now();
  const auto model = gpuprof::trace::load_trace_model(path);
  const double load_s = seconds_since(start);

  start = Clock::now();
  gpuprof::report::ReportInput input;
  input.ranks.push_back(gpuprof::analysis::analyze_rank(model, {}));
  const double analysis_s = seconds_since(start);

  print_phases(model);

  start = Clock::now();
  const auto text = gpuprof::report::render_text(input);
  const auto json = gpuprof::report::render_json(input);
  const auto html = gpuprof::report::render_html(input);
  const double render_s = seconds_since(start);
  const double total_s = seconds_since(total_start);

  fmt::print("trace            {} ({} events, {} kernels, {} steps)\n", path, model.event_count(), model.kernels.size(),
             input.ranks.front().steps.size());
  fmt::print("load             {:.3f} s\n", load_s);
  fmt::print("analyses         {:.3f} s\n", analysis_s);
  fmt::print("render (text+json+html, {} KiB) {:.3f} s\n", (text.size() + json.size() + html.size()) / 1024, render_s);
  fmt::print("total            {:.3f} s\n", total_s);
  fmt::print("peak RSS         {:.0f} MiB\n", peak_resident_mib());
  return 0;
}
