#pragma once

// The one progress renderer, the CLI's own: a single line on stderr, rewritten in place, e.g.
//   export: write 43 % 2.1 M events, 1.3 M events/s, about 2s left
// drawn at most ten times a second and cleared at the end. Nothing at all is
// written when the stream is not a terminal (a log, a pipe, CI) or with --quiet:
// progress is for a person watching, and a log must not fill with it.

#include <cstdint>
#include <cstdio>
#include <functional>
#include <mutex>
#include <string>
#include <string_view>

#include "gpuprof/progress/progress.hpp"

namespace gpuprof::cli {

// What the renderer needs to know of its stream; read from the stream itself
// (isatty, TIOCGWINSZ) except in tests, which hand a file they call a terminal.
struct TerminalFacts {
  bool is_terminal = false;
  int columns = 80;
};
TerminalFacts terminal_facts(std::FILE* stream);

// Seconds on a monotonic clock; tests pass their own.
using Clock = std::function<double()>;

class ProgressLine {
 public:
  // `command`: the line's first word ("export", "report").
  ProgressLine(std::FILE* stream, std::string command, bool quiet);
  ProgressLine(std::FILE* stream, std::string command, bool quiet, TerminalFacts terminal, Clock clock);
  ~ProgressLine();
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  bool active() const { return active_; }
  // A callback drawing on this line; empty when inactive, so the work skips its counting.
  progress::ProgressCallback callback();
  void update(const progress::ProgressUpdate& update);  // thread-safe
  // A line that must stay (a failed run of a sweep): printed even when the line
  // is inactive, after clearing the line when one is drawn.
  void note(std::string_view line);
  // Removes the line; the next update draws a new one.
  void clear();

 private:
  std::string text_of(const progress::ProgressUpdate& update, double now);
  void draw(const std::string& text);
  void clear_locked();

  std::FILE* stream_;
  std::string command_;
  bool active_;
  int columns_;
  Clock clock_;
  std::mutex mutex_;
  bool drawn_ = false;
  double last_draw_ = 0, stage_started_ = 0;
  bool ever_drawn_ = false;
  std::int64_t last_done_ = 0;
  std::string stage_;
};

// "45s", "3m 05s", "1h 02m".
std::string format_duration(double seconds);
// "950", "12.3 k", "2.1 M", "1.2 G".
std::string format_count(std::int64_t count);

}  // namespace gpuprof::cli
