#pragma once

#include <stdexcept>
#include <string>

namespace gpuprof::workloads {

// Exit statuses of gpuprof-workload, documented in workloads/README.md.
inline constexpr int exit_success = 0;
inline constexpr int exit_failure = 1;    // a failure while training
inline constexpr int exit_bad_input = 2;  // bad options, or a request this machine cannot meet
inline constexpr int exit_no_gpu = 2;     // this machine has no usable CUDA device

// Every failure the workload reports to its user: one line that names what failed.
// main() catches it, prints it and exits non-zero, so no error path can hang.
class WorkloadError : public std::runtime_error {
 public:
  explicit WorkloadError(const std::string& message, int exit_code = exit_failure)
      : std::runtime_error(message), exit_code_(exit_code) {}
  int exit_code() const { return exit_code_; }

 private:
  int exit_code_;
};

}  // namespace gpuprof::workloads
