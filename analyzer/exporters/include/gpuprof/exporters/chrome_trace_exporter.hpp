#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprof::exporters {

struct ChromeTraceOptions {
  std::string input;   // a gpuprof trace, or a Kineto, Nsight or nvprof file (imported on the fly)
  std::string output;  // .json, or .json.gz for gzip-compressed output
  bool overwrite = false;
};

struct ChromeTraceSummary {
  std::string output;
  std::int64_t events = 0;        // trace events written, metadata and flows included
  std::int64_t output_bytes = 0;  // size of the file as written (compressed for .gz)
  // The input's data-loss lines, as report shows them (rows left out when
  // loading included): an export never drops data without a word.
  std::vector<std::string> warnings;
};

// Writes a Chrome trace / Perfetto JSON file laid out like a PyTorch (Kineto)
// trace, so `gpuprof import` reads it back. The output appears only when the
// export succeeded; an existing file is replaced only with `overwrite`.
// Throws TraceError (bad_input for a wrong input or output path).
ChromeTraceSummary export_chrome_trace(const ChromeTraceOptions& options);

}  // namespace gpuprof::exporters
