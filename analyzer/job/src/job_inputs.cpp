#include "gpuprof/job/job_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <string_view>

#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::job {
namespace {

namespace fs = std::filesystem;

bool is_side_file(const std::string& name) {
  // SQLite side files and hidden files sit beside traces without being ones.
  return name.starts_with('.') || name.ends_with("-journal") || name.ends_with("-wal") || name.ends_with("-shm");
}

// A name or first bytes that only a trace would have: such a file that does not
// read as a trace is a damaged trace, not a README beside the traces.
bool looks_like_trace(const fs::path& path) {
  const auto name = path.filename().string();
  for (const char* ending : {".sqlite", ".sqlite3", ".db", ".json", ".json.gz", ".gz", ".nvvp", ".nvprof"}) {
    if (name.ends_with(ending)) return true;
  }
  std::ifstream file(path, std::ios::binary);
  std::array<char, 16> head{};
  file.read(head.data(), head.size());
  const auto got = static_cast<std::size_t>(file.gcount());
  const std::string_view bytes(head.data(), got);
  return bytes.starts_with("SQLite format 3") || bytes.starts_with("\x1f\x8b") || bytes.starts_with("{");
}

struct Expansion {
  bool skip_bad = false;
  ExpandedInputs result;

  void add_file(const std::string& path, bool in_folder) {
    try {
      importers::detect_source_format(path);
      result.paths.push_back(path);
    } catch (const TraceError& error) {
      if (in_folder && !looks_like_trace(path)) return;  // README, LICENSE and the like
      if (!skip_bad) throw;
      result.left_out.push_back(path);
      result.problems.push_back(error.what());
    }
  }

  // A rank whose file cannot be a trace (a FIFO, a device, a link to nothing
  // or a loop of links) fails the command, or is left out and named with
  // --skip-bad: never dropped without a word.
  void add_unreadable(const fs::directory_entry& entry) {
    const auto path = entry.path().string();
    struct stat target {};
    // stat() follows links: a link that ends nowhere fails here, a link to a FIFO is a FIFO.
    const std::string problem = ::stat(path.c_str(), &target) != 0
                                    ? "is a symbolic link to nothing (or a loop of links), not a trace file"
                                    : std::string("is ") + kind_of_file(target.st_mode) + ", not a trace file";
    if (!skip_bad) {
      throw TraceError::bad_input(path, problem + " (gpuprof reads regular files only; --skip-bad leaves it out)");
    }
    result.left_out.push_back(path);
    result.problems.push_back(path + ": " + problem);
  }

  void add_folder(const std::string& folder) {
    std::vector<std::string> files;
    std::vector<fs::directory_entry> unreadable;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
      if (is_side_file(entry.path().filename().string())) continue;
      std::error_code kind_error;
      if (entry.is_regular_file(kind_error)) {
        files.push_back(entry.path().string());
      } else if (!entry.is_directory(kind_error)) {
        unreadable.push_back(entry);
      }
    }
    if (error) throw TraceError::bad_input(folder, "cannot list folder: " + error.message());
    std::sort(files.begin(), files.end());
    std::sort(unreadable.begin(), unreadable.end());
    for (const auto& entry : unreadable) add_unreadable(entry);
    const auto before = result.paths.size();
    for (const auto& file : files) add_file(file, true);
    if (result.paths.size() == before && result.left_out.empty()) {
      throw TraceError::bad_input(folder, "folder contains no trace files");
    }
  }
};

}  // namespace

ExpandedInputs expand_inputs(const std::vector<std::string>& inputs, bool skip_bad) {
  if (inputs.empty()) throw TraceError::bad_input("", "no trace files given");
  Expansion expansion{skip_bad, {}};
  for (const auto& input : inputs) {
    if (check_input_file(input, true) == InputKind::folder) {
      expansion.add_folder(input);
    } else if (skip_bad) {
      expansion.add_file(input, false);
    } else {
      expansion.result.paths.push_back(input);  // judged when it is opened, with the same sentence
    }
  }
  if (expansion.result.paths.empty()) {
    throw TraceError::bad_input(inputs.front(), "no readable trace left (--skip-bad left out every file)");
  }
  return std::move(expansion.result);
}

std::vector<std::string> expand_inputs(const std::vector<std::string>& inputs) {
  return expand_inputs(inputs, false).paths;
}

}  // namespace gpuprof::job
