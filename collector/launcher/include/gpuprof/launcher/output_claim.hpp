#pragma once

#include <string>
#include <string_view>

#include "gpuprof/launcher/output_pattern.hpp"

namespace gpuprof::launcher {

struct OutputClaim {
  std::string path;   // the file now reserved for this process (empty on failure)
  std::string error;  // why no file could be reserved
  bool ok() const { return error.empty(); }
};

// Expands the pattern and reserves the resulting file by creating it
// exclusively, so that concurrent processes never share a file. With %n the
// numbers 1, 2, ... are tried until a free name is found. An existing file is
// replaced only when `force` is set.
OutputClaim claim_output_file(std::string_view pattern, const PatternContext& context, bool force);

// Checks that the folder a path would be written to exists and is writable.
// Returns an empty string when it is, otherwise the problem.
std::string check_output_folder(const std::string& path);

}  // namespace gpuprof::launcher
