#include "gpuprof/job/job_inputs.hpp"

#include <algorithm>
#include <filesystem>

#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::job {
namespace {

namespace fs = std::filesystem;

bool is_trace(const fs::path& path) {
  const auto name = path.filename().string();
  // SQLite side files and hidden files sit beside traces without being ones.
  if (name.starts_with('.') || name.ends_with("-journal") || name.ends_with("-wal") || name.ends_with("-shm")) {
    return false;
  }
  try {
    importers::detect_source_format(path.string());
    return true;
  } catch (const TraceError&) {
    return false;  // README, LICENSE and the like
  }
}

std::vector<std::string> traces_in_folder(const std::string& folder) {
  std::vector<std::string> found;
  std::error_code error;
  for (const auto& entry : fs::directory_iterator(folder, error)) {
    if (entry.is_regular_file() && is_trace(entry.path())) found.push_back(entry.path().string());
  }
  if (error) throw TraceError::bad_input(folder, "cannot list folder: " + error.message());
  if (found.empty()) throw TraceError::bad_input(folder, "folder contains no trace files");
  std::sort(found.begin(), found.end());
  return found;
}

}  // namespace

std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  if (inputs.empty()) throw TraceError::bad_input("", "no trace files given");
  std::vector<std::string> paths;
  for (const auto& input : inputs) {
    if (check_input_file(input, true) == InputKind::folder) {
      const auto found = traces_in_folder(input);
      paths.insert(paths.end(), found.begin(), found.end());
    } else {
      paths.push_back(input);
    }
  }
  return paths;
}

}  // namespace gpuprof::job
