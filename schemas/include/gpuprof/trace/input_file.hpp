#pragma once

#include <string>

namespace gpuprof {

enum class InputKind { file, folder };

// Every input is judged by stat() before anything opens it: a missing name, a
// folder where only a file will do, and anything that is neither a regular file
// nor a folder (a FIFO would block the open forever, a device would be read
// without end) are refused with TraceError::bad_input naming `path`. Symbolic
// links are followed: a link to a trace is that trace.
InputKind check_input_file(const std::string& path, bool folder_accepted = false);

}  // namespace gpuprof
