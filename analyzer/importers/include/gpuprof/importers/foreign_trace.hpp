#pragma once

#include <filesystem>
#include <string>

namespace gpuprof::importers {

// A private temporary folder for traces imported on the fly; removed with its
// contents when the object goes away.
class TemporaryStore {
 public:
  TemporaryStore();
  ~TemporaryStore();
  TemporaryStore(const TemporaryStore&) = delete;
  TemporaryStore& operator=(const TemporaryStore&) = delete;

  const std::filesystem::path& folder() const { return folder_; }

 private:
  std::filesystem::path folder_;
};

// Lets commands that read gpuprof traces (report, info, compare) accept foreign
// files directly: returns `input` itself when it is already a gpuprof trace,
// otherwise imports it into `store` and returns the path of the imported trace.
std::string open_as_trace(const std::string& input, TemporaryStore& store);

}  // namespace gpuprof::importers
