#pragma once

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "gpuprof/progress/progress.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {

// A private temporary folder for traces imported on the fly
// ($TMPDIR/gpuprof-tmp-<pid>-XXXXXX); removed with its contents when the object
// goes away, or by SIGINT/SIGTERM (temporary_files.hpp).
class TemporaryStore {
 public:
  TemporaryStore();
  ~TemporaryStore();
  TemporaryStore(const TemporaryStore&) = delete;
  TemporaryStore& operator=(const TemporaryStore&) = delete;

  const std::filesystem::path& folder() const { return folder_; }
  // Registers a file about to be created in the folder, so a signal removes it
  // before removing the folder.
  void add(const std::string& file);

 private:
  PrivateFolder private_folder_;
  std::filesystem::path folder_;
  std::vector<std::unique_ptr<TemporaryName>> file_names_;
};

// Lets commands that read gpuprof traces (report, info, compare) accept foreign
// files directly: returns `input` itself when it is already a gpuprof trace,
// otherwise imports it into `store` and returns the path of the imported trace.
// `progress` sees the import (ImportOptions::progress).
std::string open_as_trace(const std::string& input, TemporaryStore& store, const progress::ProgressCallback& progress = {});

// Runs `read` on `trace`, the trace open_as_trace made of `input`: a problem met
// in an imported copy is reported against the user's file, never against a
// temporary the user has never seen (and that is gone when the message shows).
template <typename Read>
auto read_as_input(const std::string& input, const std::string& trace, Read&& read) {
  try {
    return read();
  } catch (const TraceError& error) {
    if (trace == input || error.path() != trace) throw;
    throw TraceError(error.kind(), input, error.problem());
  }
}

}  // namespace gpuprof::importers
