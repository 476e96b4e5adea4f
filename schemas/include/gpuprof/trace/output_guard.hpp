#pragma once

#include <string>
#include <vector>

namespace gpuprof {

// Every command that writes calls this before writing: an output that is the
// same file as an input (compared by device and inode, so `./././T.sqlite`,
// symbolic and hard links count as T.sqlite) is refused with
// TraceError::bad_input naming both. A folder among the inputs stands for
// every file beneath it. Outputs and inputs that do not exist are skipped.
void refuse_writing_over_inputs(const std::vector<std::string>& outputs, const std::vector<std::string>& inputs);

}  // namespace gpuprof
