#include "gpuprof/trace/output_guard.hpp"

#include <sys/stat.h>

#include <filesystem>
#include <map>
#include <optional>
#include <utility>

#include "gpuprof/trace/input_file.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

using FileIdentity = std::pair<dev_t, ino_t>;

// Follows symbolic links: a link to an input is that input.
std::optional<FileIdentity> identity_of(const std::string& path) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) return std::nullopt;
  return FileIdentity{status.st_dev, status.st_ino};
}

void add_input(const std::string& input, std::map<FileIdentity, std::string>& files) {
  std::error_code error;
  if (!fs::is_directory(input, error)) {
    if (const auto identity = identity_of(input)) files.emplace(*identity, input);
    return;
  }
  const auto options = fs::directory_options::skip_permission_denied;
  for (fs::recursive_directory_iterator entry(input, options, error), end; !error && entry != end;
       entry.increment(error)) {
    if (entry->is_regular_file(error)) {
      if (const auto identity = identity_of(entry->path().string())) files.emplace(*identity, entry->path().string());
    }
  }
}

}  // namespace

void refuse_non_regular_output(const std::string& output) {
  struct stat status {};
  if (::lstat(output.c_str(), &status) != 0) return;  // a new name (or one we cannot see: creating it will say)
  if (S_ISREG(status.st_mode) || S_ISDIR(status.st_mode)) return;
  throw TraceError::bad_input(output, "is " + std::string(kind_of_file(status.st_mode)) +
                                          "; gpuprof writes only to regular files or new names (even with --force)");
}

void refuse_folder_output(const std::string& output) {
  struct stat status {};
  if (::lstat(output.c_str(), &status) != 0 || !S_ISDIR(status.st_mode)) return;
  throw TraceError::bad_input(output, "is a folder, and this output is one file (even with --force): name a file, "
                                      "for example " + (fs::path(output) / "out").string());
}

void refuse_writing_over_inputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs) {
  std::map<FileIdentity, std::string> files;
  for (const auto& input : inputs) add_input(input, files);
  for (const auto& output : outputs) {
    const auto identity = identity_of(output);
    if (identity) {
      if (const auto found = files.find(*identity); found != files.end()) {
        throw TraceError::bad_input(output, "is the input " + found->second +
                                                "; refusing to write over it (choose another output)");
      }
    }
    refuse_non_regular_output(output);
  }
}

}  // namespace gpuprof
