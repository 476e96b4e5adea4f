// Measures `gpuprof export --chrome-trace`: events/s for a synthetic trace of
// about a million events, plain and gzip output (load time included, as the
// command pays it). Prints figures only.
//
//   gpuprof_export_benchmark [events=1000000]

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <unistd.h>
#include <filesystem>
#include <string>

#include "gpuprof/exporters/chrome_trace_exporter.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"

namespace fs = std::filesystem;
using namespace gpuprof;

int main(int argc, char** argv) {
  const std::int64_t events = argc > 1 ? std::atoll(argv[1]) : 1'000'000;
  const fs::path folder = fs::temp_directory_path() / ("gpuprof-export-bench-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const std::string trace_path = (folder / "synthetic.sqlite").string();
  synthetic::SynthOptions options;
  options.events = events;
  const auto synth = synthetic::write_synthetic_trace(trace_path, options);
  std::printf("synthetic trace: %lld events\n", static_cast<long long>(synth.events));
  for (const char* name : {"out.json", "out.json.gz"}) {
    const auto begin = std::chrono::steady_clock::now();
    const auto summary = exporters::export_chrome_trace({{trace_path}, (folder / name).string(), false});
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    std::printf("%-12s %9lld trace events in %6.2f s: %10.0f events/s, %7.1f MiB\n", name,
                static_cast<long long>(summary.events), seconds, static_cast<double>(summary.events) / seconds,
                static_cast<double>(summary.output_bytes) / (1 << 20));
  }
  fs::remove_all(folder);
  return 0;
}
