#pragma once

// The sweep's progress on stderr: one line rewritten in place on a terminal,
// plain lines otherwise (logs, CI).

#include <cstdint>
#include <cstdio>
#include <string>

namespace gpuprof::study {

class ProgressLine {
 public:
  ProgressLine(std::FILE* stream, std::size_t total_runs);
  // Announces run `index` (from 0) and the time left estimated from the runs finished so far.
  void start(std::size_t index, const std::string& what);
  void finish(double seconds);
  // A line that must stay visible (a failure); clears the progress line first.
  void note(const std::string& line);
  void done();

 private:
  std::FILE* stream_;
  std::size_t total_, finished_ = 0;
  double seconds_ = 0;
  bool terminal_ = false, open_line_ = false;
};

// "45s", "3m 05s", "1h 02m".
std::string format_duration(double seconds);

}  // namespace gpuprof::study
