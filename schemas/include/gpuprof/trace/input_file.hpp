#pragma once

#include <sys/types.h>

#include <cstddef>
#include <string>

namespace gpuprof {

enum class InputKind { file, folder };

// What a file that is not a regular file is, for an error line: "a FIFO",
// "a device", "a socket", "a directory", "a symbolic link" (from lstat).
const char* kind_of_file(mode_t mode);

// Every input is judged by stat() before anything opens it: a missing name, a
// folder where only a file will do, and anything that is neither a regular file
// nor a folder (a FIFO would block the open forever, a device would be read
// without end) are refused with TraceError::bad_input naming `path`. Symbolic
// links are followed: a link to a trace is that trace.
InputKind check_input_file(const std::string& path, bool folder_accepted = false);

// The limits of a small text input (a link file): far above any real one,
// far below what would take the machine's memory or a parser's patience.
struct TextLimits {
  std::size_t max_bytes = std::size_t{8} << 20;
  std::size_t max_line_bytes = std::size_t{8} << 10;
};

// The whole of a small text file named by the user. Opened without blocking
// and judged by fstat on what was opened (a FIFO, device, socket or folder is
// refused even if swapped in after a check by name); a file over
// `limits.max_bytes`, or with a line over `limits.max_line_bytes`, is refused
// before it is parsed. `what` names the input in errors ("link file").
// Throws TraceError::bad_input naming `path`.
std::string read_text_input(const std::string& path, const char* what, TextLimits limits = {});

}  // namespace gpuprof
