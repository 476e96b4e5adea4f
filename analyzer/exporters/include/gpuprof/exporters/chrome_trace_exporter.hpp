#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "gpuprof/progress/progress.hpp"

namespace gpuprof::exporters {

struct ChromeTraceOptions {
  // Trace files or folders of one job, as `gpuprof report` takes them: gpuprof
  // traces, or Kineto, Nsight or nvprof files (imported on the fly).
  std::vector<std::string> inputs;
  std::string output;  // .json, or .json.gz for gzip-compressed output
  bool overwrite = false;
  std::vector<std::int32_t> ranks;  // --ranks: one per trace file; empty: from meta or order, as report does
  // Stages "load" (rows read) and "write" (rows written as events), for a
  // progress line; a job also reports its ranks' analysis (job::JobOptions). Empty: not counted.
  progress::ProgressCallback progress;
};

struct ChromeTraceSummary {
  std::string output;
  std::int64_t events = 0;        // trace events written, metadata and flows included
  std::int64_t output_bytes = 0;  // size of the file as written (compressed for .gz)
  std::int64_t ranks = 1;         // trace files merged
  std::string clock_method;       // a job: how the ranks' clocks were aligned (job::to_string)
  std::int64_t collective_arrows = 0;  // a job: arrows joining one collective across ranks
  // Each input's data-loss lines, as report shows them (rows left out when
  // loading included), with the file they are about: an export never drops
  // data without a word.
  std::vector<std::pair<std::string, std::string>> warnings;
  std::vector<std::string> notices;  // a job: how ranks were assigned and clocks aligned
};

// Writes a Chrome trace / Perfetto JSON file laid out like a PyTorch (Kineto)
// trace, so `gpuprof import` reads it back. Several ranks of a job go into one
// file on the reference rank's clock (docs/export.md). The output appears only
// when the export succeeded; an existing file is replaced only with `overwrite`.
// Throws TraceError (bad_input for a wrong input or output path).
ChromeTraceSummary export_chrome_trace(const ChromeTraceOptions& options);

}  // namespace gpuprof::exporters
