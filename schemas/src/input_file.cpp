#include "gpuprof/trace/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof {
namespace {

std::string size_text(std::size_t bytes) {
  return bytes >= (std::size_t{1} << 20) ? std::to_string(bytes >> 20) + " MiB" : std::to_string(bytes >> 10) + " KiB";
}

// Closes the descriptor on every way out.
struct Descriptor {
  int fd;
  ~Descriptor() {
    if (fd >= 0) ::close(fd);
  }
};

void refuse_long_line(const std::string& path, const std::string& text, const char* what, std::size_t max_line) {
  std::size_t start = 0, line = 1;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    if (end - start > max_line) {
      throw TraceError::bad_input(path, "line " + std::to_string(line) + " is longer than " + size_text(max_line) +
                                            "; not a " + what + " (give the tool's own output, unedited)");
    }
    start = end + 1, ++line;
  }
}

}  // namespace

const char* kind_of_file(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

std::string read_text_input(const std::string& path, const char* what, TextLimits limits) {
  // O_NONBLOCK: opening a FIFO without a writer returns at once instead of waiting forever.
  const Descriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (file.fd < 0) {
    if (errno == ENOENT || errno == ENOTDIR) throw TraceError::bad_input(path, "no such file");
    throw TraceError::bad_input(path, std::string("cannot be read: ") + std::strerror(errno));
  }
  struct stat status {};
  if (::fstat(file.fd, &status) != 0) {
    throw TraceError::bad_input(path, std::string("cannot be read: ") + std::strerror(errno));
  }
  if (S_ISDIR(status.st_mode)) throw TraceError::bad_input(path, std::string("is a directory, not a ") + what);
  if (!S_ISREG(status.st_mode)) {
    throw TraceError::bad_input(path, std::string("is ") + kind_of_file(status.st_mode) + ", not a " + what +
                                          " (gpuprof reads regular files only)");
  }
  if (static_cast<std::size_t>(status.st_size) > limits.max_bytes) {
    throw TraceError::bad_input(path, std::string("is larger than ") + size_text(limits.max_bytes) + "; not a " +
                                          what + " (give the tool's own output, unedited)");
  }
  std::string text;
  // One byte more than fstat said tells a file that grew meanwhile.
  const auto expected = static_cast<std::size_t>(status.st_size);
  text.resize(expected + 1);
  std::size_t got = 0;
  while (got < text.size()) {
    const auto n = ::read(file.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw TraceError::bad_input(path, std::string("cannot be read: ") + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  if (got > expected) {
    throw TraceError::bad_input(path, std::string("grew while gpuprof read it; read it when the program writing it has "
                                                  "finished"));
  }
  text.resize(got);
  text.shrink_to_fit();
  refuse_long_line(path, text, what, limits.max_line_bytes);
  return text;
}

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
  throw TraceError::bad_input(path, std::string("is ") + kind_of_file(status.st_mode) +
                                        ", not a trace file (gpuprof reads regular files only)");
}

}  // namespace gpuprof
