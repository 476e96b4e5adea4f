#pragma once

#include <string>
#include <vector>

namespace gpuprof {

// Every command that writes calls this before writing: an output that is the
// same file as an input (compared by device and inode, so `./././T.sqlite`,
// symbolic and hard links count as T.sqlite) is refused with
// TraceError::bad_input naming both. A folder among the inputs stands for
// every file beneath it. Outputs and inputs that do not exist are skipped.
// Also refuses every output that exists and is not a regular file or a
// folder (refuse_non_regular_output).
void refuse_writing_over_inputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

// An output either is a new name or replaces a regular file (or is a folder a
// CSV report fills): a device node, FIFO, socket or symbolic link is refused
// with TraceError::bad_input, --force or not. Renaming over /dev/null would
// replace the device itself, and a link would be replaced rather than followed.
// Uses lstat, so the final name itself is judged, never what it points to.
void refuse_non_regular_output(const std::string& output);

// A writer of one file whose output names an existing folder: bad_input with
// what to do (--force or not; renaming onto a folder fails, "Is a directory").
void refuse_folder_output(const std::string& output);

}  // namespace gpuprof
