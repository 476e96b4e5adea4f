#include "collector_log.hpp"

#include <unistd.h>

#include <atomic>

namespace gpuprof::collector {

void log_line(const std::string& message) noexcept {
  try {
    const std::string line = "gpuprof: " + message + "\n";
    [[maybe_unused]] auto written = ::write(STDERR_FILENO, line.data(), line.size());
  } catch (...) {
    // Out of memory while logging: nothing useful is left to do.
  }
}

void log_error_once(const std::string& message) noexcept {
  static std::atomic<bool> logged{false};
  if (!logged.exchange(true)) log_line(message);
}

}  // namespace gpuprof::collector
