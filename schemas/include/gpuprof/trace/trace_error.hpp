#pragma once

#include <stdexcept>
#include <string>

namespace gpuprof {

// An error tied to one file. `bad_input` means the file (or an argument) is
// wrong and the command should exit with code 2; `failure` means gpuprof
// itself could not finish (disk full, permission denied while writing).
class TraceError : public std::runtime_error {
 public:
  enum class Kind { bad_input, failure };

  TraceError(Kind kind, std::string path, std::string problem)
      : std::runtime_error(path.empty() ? problem : path + ": " + problem),
        kind_(kind), path_(std::move(path)), problem_(std::move(problem)) {}

  static TraceError bad_input(std::string path, std::string problem) {
    return {Kind::bad_input, std::move(path), std::move(problem)};
  }
  static TraceError failure(std::string path, std::string problem) {
    return {Kind::failure, std::move(path), std::move(problem)};
  }

  Kind kind() const { return kind_; }
  const std::string& path() const { return path_; }
  const std::string& problem() const { return problem_; }

 private:
  Kind kind_;
  std::string path_;
  std::string problem_;
};

}  // namespace gpuprof
