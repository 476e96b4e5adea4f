#include "gpuprof/study/progress_line.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>

namespace gpuprof::study {

std::string format_duration(double seconds) {
  const auto total = static_cast<std::int64_t>(std::llround(std::max(0.0, seconds)));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m", total / 3600, (total % 3600) / 60);
}

ProgressLine::ProgressLine(std::FILE* stream, std::size_t total_runs)
    : stream_(stream), total_(total_runs), terminal_(stream != nullptr && ::isatty(::fileno(stream)) != 0) {}

void ProgressLine::start(std::size_t index, const std::string& what) {
  if (stream_ == nullptr) return;
  const std::size_t left = total_ - index;
  // Runs of one sweep differ in length, but the mean so far is the best guess there is.
  const std::string eta = finished_ == 0 ? std::string("time left unknown yet")
                                         : "about " + format_duration(seconds_ / static_cast<double>(finished_) * static_cast<double>(left)) + " left";
  const auto line = fmt::format("gpuprof: [{}/{}] {} ({})", index + 1, total_, what, eta);
  if (terminal_) {
    fmt::print(stream_, "\r\033[K{}", line);
    open_line_ = true;
  } else {
    fmt::print(stream_, "{}\n", line);
  }
  std::fflush(stream_);
}

void ProgressLine::finish(double seconds) {
  ++finished_;
  seconds_ += seconds;
}

void ProgressLine::note(const std::string& line) {
  if (stream_ == nullptr) return;
  if (open_line_) fmt::print(stream_, "\r\033[K");
  open_line_ = false;
  fmt::print(stream_, "{}\n", line);
  std::fflush(stream_);
}

void ProgressLine::done() {
  if (stream_ != nullptr && open_line_) fmt::print(stream_, "\n");
  open_line_ = false;
}

}  // namespace gpuprof::study
