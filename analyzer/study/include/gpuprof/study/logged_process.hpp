#pragma once

// Runs one program of a sweep with its output in a log file, so the terminal
// keeps only the progress line and the log keeps the program's last words.

#include <string>
#include <vector>

namespace gpuprof::study {

struct ProcessOutcome {
  int exit_code = 0;  // 128 + signal when killed, 127 when it could not start
  bool started = true;
  std::string start_error;
};

// Starts argv[0] (looked up in PATH), stdout and stderr appended to `log_path`, and waits.
ProcessOutcome run_logged(const std::vector<std::string>& argv, const std::string& log_path);

// The line of the log that best says why a run failed: the last non-empty line
// that is not one of gpuprof record's own notes, else the last non-empty line.
std::string failure_line(const std::string& log_path);

}  // namespace gpuprof::study
