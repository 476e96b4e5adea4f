#pragma once

// What long work (loading, importing, exporting, a sweep) reports while it
// runs. The analyzer only calls a ProgressCallback; it never prints. The CLI
// draws the updates with its ProgressLine (cli/progress_line.hpp), and passes no callback at all when
// nothing would be drawn, so the work then costs nothing extra.

#include <cstdint>
#include <functional>
#include <string_view>

namespace gpuprof::progress {

struct ProgressUpdate {
  std::string_view stage;  // "load", "write", "read", "run"
  std::int64_t done = 0;   // units of the stage done so far
  std::int64_t total = 0;  // units the stage holds in all; 0 when unknown (no percentage is shown)
  std::string_view unit;   // what `done` counts: "rows", "events", "bytes", "runs"
  std::string_view item;   // what is being worked on, when it helps ("rank 3 of 8", a run); may be empty
};

// May be called from several threads, but never from two at once for one
// StageCounter; a callback shared by several counters must be thread-safe
// (ProgressLine is).
using ProgressCallback = std::function<void(const ProgressUpdate&)>;

}  // namespace gpuprof::progress
