#include "gpuprof/launcher/output_claim.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace gpuprof::launcher {
namespace {

// Enough for every rank of a large job writing into one folder.
constexpr std::int64_t kMaxNumber = 100'000;

enum class CreateResult { created, exists, failed };

CreateResult create_file(const std::string& path, bool replace, std::string& error) {
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (replace ? O_TRUNC : O_EXCL);
  const int descriptor = ::open(path.c_str(), flags, 0644);
  if (descriptor >= 0) {
    ::close(descriptor);
    return CreateResult::created;
  }
  if (errno == EEXIST) return CreateResult::exists;
  error = path + ": cannot create: " + std::strerror(errno);
  return CreateResult::failed;
}

}  // namespace

std::string check_output_folder(const std::string& path) {
  std::filesystem::path folder = std::filesystem::path(path).parent_path();
  if (folder.empty()) folder = ".";
  std::error_code error;
  if (!std::filesystem::is_directory(folder, error)) return "output folder " + folder.string() + " does not exist";
  if (::access(folder.c_str(), W_OK | X_OK) != 0) {
    return "output folder " + folder.string() + " is not writable: " + std::strerror(errno);
  }
  return {};
}

OutputClaim claim_output_file(std::string_view pattern, const PatternContext& context, bool force) {
  OutputClaim claim;
  try {
    const bool numbered = has_number_placeholder(pattern);
    PatternContext candidate = context;
    for (candidate.number = 1; candidate.number <= kMaxNumber; ++candidate.number) {
      const std::string path = expand_output_pattern(pattern, candidate);
      if (auto problem = check_output_folder(path); !problem.empty()) {
        claim.error = path + ": " + problem;
        return claim;
      }
      // %n exists to find a free name, so it never replaces a file, even with --force.
      switch (create_file(path, force && !numbered, claim.error)) {
        case CreateResult::created: claim.path = path; return claim;
        case CreateResult::failed: return claim;
        case CreateResult::exists:
          if (!numbered) {
            claim.error = path + ": already exists (use --force to overwrite, or %n in the pattern)";
            return claim;
          }
          break;
      }
    }
    claim.error = std::string(pattern) + ": no free file name up to %n = " + std::to_string(kMaxNumber);
  } catch (const std::invalid_argument& problem) {
    claim.error = problem.what();
  }
  return claim;
}

}  // namespace gpuprof::launcher
