#pragma once

#include <optional>
#include <string>

#include "gpuprof/importers/gpu_clock_check.hpp"
#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/progress/progress.hpp"

namespace gpuprof::importers {

struct ImportOptions {
  std::string input;
  std::string output;
  std::optional<SourceFormat> format;  // detected from content when empty
  bool overwrite = false;
  std::string tool_version;
  // Stage "import": bytes of a Kineto JSON file read (of its size on disk), for
  // a progress line. Nsight and nvprof files are SQLite: no percentage is
  // known before their rows are read, so they report nothing. Empty: not counted.
  progress::ProgressCallback progress;
};

struct ImportSummary {
  std::string input, output;
  SourceFormat format = SourceFormat::kineto;
  ImportCounts counts;
  std::optional<std::int32_t> rank, world_size;
  GpuClockCheck clock;  // the host/GPU time-base check, and the shift applied (0: none)
};

// Imports one foreign trace into a new gpuprof trace file. The output appears
// only when the import succeeded: any TraceError leaves no file behind.
ImportSummary import_trace(const ImportOptions& options);

// "kernels 245, memcpys 16, ... , warnings 3" for the CLI's one-line summary.
std::string describe(const ImportSummary& summary);

}  // namespace gpuprof::importers
