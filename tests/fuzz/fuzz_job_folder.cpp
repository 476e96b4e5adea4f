// The folder and job loader: the fuzz bytes split at each "\n--next file--\n"
// into up to four files of a folder, each named by its first byte (a trace's
// ending, or a README's), then the folder through job analysis as `report DIR`
// runs it, strict and with --skip-bad. A TraceError is the expected answer to
// a damaged folder; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "fuzz_scratch.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace {

constexpr std::string_view kSeparator = "\n--next file--\n";
constexpr std::size_t kMaxFiles = 4;

void write_folder(const std::filesystem::path& folder, std::string_view bytes) {
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  std::filesystem::create_directories(folder);
  static constexpr const char* kEndings[] = {".sqlite", ".json", ".json.gz", ".nvvp", ".txt", ""};
  for (std::size_t index = 0; index < kMaxFiles && !bytes.empty(); ++index) {
    const auto end = bytes.find(kSeparator);
    const auto part = bytes.substr(0, end);
    const auto ending = kEndings[part.empty() ? 0 : static_cast<std::uint8_t>(part.front()) % std::size(kEndings)];
    const auto path = (folder / ("rank" + std::to_string(index) + ending)).string();
    gpuprof::fuzz::write_input(path, reinterpret_cast<const std::uint8_t*>(part.data()), part.size());
    bytes = end == std::string_view::npos ? std::string_view() : bytes.substr(end + kSeparator.size());
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuprof::fuzz::ScratchFolder scratch;
  const auto folder = scratch.path() / "job";
  write_folder(folder, std::string_view(reinterpret_cast<const char*>(data), size));
  for (const bool skip_bad : {false, true}) {
    try {
      gpuprof::job::analyze_job({folder.string()}, {.threads = 1, .skip_bad = skip_bad});
    } catch (const gpuprof::TraceError& error) {
      if (gpuprof::fuzz::verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
    }
  }
  return 0;
}
