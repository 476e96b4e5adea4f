#pragma once

#include <filesystem>
#include <string>

namespace gpuprof::testing {

// A fresh folder under the system temporary directory, removed with its
// contents when the object goes away.
class TemporaryFolder {
 public:
  TemporaryFolder();
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::filesystem::path& path() const { return path_; }
  std::string file(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

// Writes `content` to `path` as bytes.
void write_file(const std::string& path, const std::string& content);
std::string read_file(const std::string& path);

// The shared folder of real traces, or empty when this clone does not have it.
std::filesystem::path external_data_dir();

}  // namespace gpuprof::testing
