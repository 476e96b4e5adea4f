#include <gtest/gtest.h>

#include <string>

#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "report_first_screen.hpp"
#include "temporary_folder.hpp"

// A job's first screen holds its answer: within 40 lines the step, where it goes, why the GPUs idle and which
// rank holds the others back, with a note shared by every rank said once and the rank files after the tables.

namespace gpuprof::report {
namespace {

// 8 ranks of one GPU each, 3 steps each: with 5 warm-up steps asked for, every rank has only warm-up steps
// and says so, as each rank of the shared DLRM job does.
ReportInput eight_rank_job(const gpuprof::testing::TemporaryFolder& folder) {
  std::vector<std::string> paths;
  for (std::int32_t rank = 0; rank < 8; ++rank) {
    synthetic::SynthOptions options;
    options.devices = 1, options.steps = 3, options.kernels_per_step = 8, options.seed = 11 + rank;
    options.rank = rank, options.world_size = 8;
    options.loader_us = 300 + 200 * (rank == 5);  // rank 5 loads slower: the others wait for it
    paths.push_back(folder.file("rank" + std::to_string(rank) + ".sqlite"));
    synthetic::write_synthetic_trace(paths.back(), options);
  }
  job::JobOptions options;
  options.analysis.warmup_steps = 5;
  return report_input(job::analyze_job({folder.path().string()}, options));
}

TEST(ReportFirstScreen, AnEightRankJobAnswersWithinFortyLines) {
  gpuprof::testing::TemporaryFolder folder;
  const auto input = eight_rank_job(folder);
  ASSERT_EQ(input.ranks.size(), 8u);
  gpuprof::testing::expect_first_screen_answers(render_text(input), "synthetic 8-rank job");
  gpuprof::testing::expect_html_leads_with_the_job(render_html(input), "synthetic 8-rank job");
}

// A note on several ranks is one line naming them; notes that differ in numbers only list the numbers by rank
// (a decimal stays one number); a rank's second note of the same words is not lost.
TEST(ReportFirstScreen, NotesAreSaidOnceWithTheirRanks) {
  ReportInput input;
  input.sections = {};
  for (std::int32_t rank = 0; rank < 3; ++rank) {
    auto& analysis = input.ranks.emplace_back();
    analysis.rank = rank;
    analysis.path = "r" + std::to_string(rank) + ".sqlite";
    analysis.warnings = {"invalid_buffers = 2 (buffer without records)"};
    analysis.notices = {"every step of device " + std::to_string(rank) + " is a warm-up step (1 in all)",
                        std::string("late by ") + (rank == 1 ? "1.5" : "0.5") + " ms"};
  }
  input.ranks[2].notices.push_back("every step of device 7 is a warm-up step (1 in all)");
  const auto text = render_text(input);
  EXPECT_NE(text.find("  WARNING (ranks 0-2): invalid_buffers = 2 (buffer without records)\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("  NOTE (ranks 0-2): every step of device 0/1/2 is a warm-up step (1 in all)\n"),
            std::string::npos) << text;
  EXPECT_NE(text.find("  NOTE (ranks 0-2): late by 0.5/1.5/0.5 ms\n"), std::string::npos) << text;
  EXPECT_NE(text.find("  NOTE (rank 2): every step of device 7 is a warm-up step (1 in all)\n"), std::string::npos)
      << text;
}

}  // namespace
}  // namespace gpuprof::report
