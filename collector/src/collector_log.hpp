#pragma once

#include <string>

namespace gpuprof::collector {

// Writes "gpuprof: <message>" to stderr in one write, so that lines from several
// threads or processes do not interleave. Never throws.
void log_line(const std::string& message) noexcept;

// Logs only the first error of the process: after it collection has stopped, and
// repeating it would only clutter the program's output.
void log_error_once(const std::string& message) noexcept;

}  // namespace gpuprof::collector
