#include "gpuprof/trace/file_publishing.hpp"

#include <unistd.h>

#include <cerrno>
#include <filesystem>

#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

[[noreturn]] void refuse_existing(const std::string& target) {
  throw TraceError::bad_input(target, "already exists (use --force to overwrite)");
}

}  // namespace

void publish_file(const std::string& temporary, const std::string& target, bool overwrite) {
  // Checked again here, at the one place outputs are renamed into place: the name may have changed since the
  // command started.
  refuse_non_regular_output(target);
  refuse_folder_output(target);
  if (!overwrite) {
    if (::link(temporary.c_str(), target.c_str()) == 0) {
      ::unlink(temporary.c_str());
      return;
    }
    if (errno == EEXIST) refuse_existing(target);
    std::error_code ignored;
    if (fs::exists(target, ignored)) refuse_existing(target);
  }
  std::error_code error;
  fs::rename(temporary, target, error);
  if (error) throw TraceError::failure(target, "cannot rename into place: " + error.message());
}

}  // namespace gpuprof
