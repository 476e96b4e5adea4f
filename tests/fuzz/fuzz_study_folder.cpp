// The study folder (issue 40): the fuzz bytes as STUDY/study.sqlite, read the
// way `gpuprof study` reads it: opened (code in the file refused), loaded, the
// traces it names analysed (the folder holds none, so each is a notice), and
// the report built and rendered in every format. A TraceError is the expected
// answer to a bad study; anything else is a finding.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz_scratch.hpp"
#include "gpuprof/study/study_report.hpp"
#include "gpuprof/study/study_store.hpp"
#include "gpuprof/study/study_waterfall.hpp"
#include "gpuprof/study/study_writers.hpp"
#include "gpuprof/trace/trace_error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const gpuprof::fuzz::ScratchFolder scratch;
  const auto folder = scratch.path() / "study";
  std::error_code ignored;
  std::filesystem::remove_all(folder, ignored);
  std::filesystem::create_directories(folder);
  const auto database = (folder / gpuprof::study::kStudyFileName).string();
  gpuprof::fuzz::write_input(database, data, size);
  try {
    auto store = gpuprof::study::StudyStore::open(database, false);
    const auto study = store.load();
    std::vector<std::string> notices;
    const auto breakdowns = gpuprof::study::breakdowns_of_study(study, folder.string(), notices);
    auto report = gpuprof::study::build_study_report(study, breakdowns);
    report.waterfalls = gpuprof::study::waterfalls_of_study(study, folder.string(), notices);
    for (const auto format : {gpuprof::report::Format::text, gpuprof::report::Format::markdown,
                              gpuprof::report::Format::csv, gpuprof::report::Format::json,
                              gpuprof::report::Format::html}) {
      (void)gpuprof::study::render_study(format, report);
    }
  } catch (const gpuprof::TraceError& error) {
    if (gpuprof::fuzz::verbose()) std::fprintf(stderr, "TraceError: %s\n", error.what());
  }
  return 0;
}
