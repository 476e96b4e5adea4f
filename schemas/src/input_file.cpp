#include "gpuprof/trace/input_file.hpp"

#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof {
namespace {

const char* kind_of(mode_t mode) {
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

}  // namespace

InputKind check_input_file(const std::string& path, bool folder_accepted) {
  struct stat status {};
  if (::stat(path.c_str(), &status) != 0) {
    if (errno == ENOENT || errno == ENOTDIR) {
      throw TraceError::bad_input(path, folder_accepted ? "no such file or folder" : "no such file");
    }
    throw TraceError::bad_input(path, std::string("cannot be read: ") + std::strerror(errno));
  }
  if (S_ISREG(status.st_mode)) return InputKind::file;
  if (S_ISDIR(status.st_mode)) {
    if (folder_accepted) return InputKind::folder;
    throw TraceError::bad_input(path, "is a directory, not a trace file");
  }
  throw TraceError::bad_input(path, std::string("is ") + kind_of(status.st_mode) +
                                        ", not a trace file (gpuprof reads regular files only)");
}

}  // namespace gpuprof
