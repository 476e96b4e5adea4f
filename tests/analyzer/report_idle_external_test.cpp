#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>

#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/report/report_writers.hpp"
#include "temporary_folder.hpp"

// Why the GPU is idle, on real traces (issue 28): the answers the first screen must give. Skips without
// ../shared/data/external.

namespace gpuprof::report {
namespace {

namespace fs = std::filesystem;

std::optional<ReportInput> input_of(const std::string& relative) {
  const auto data = gpuprof::testing::external_data_dir();
  if (data.empty() || !fs::exists(data / relative)) return std::nullopt;
  return report_input(job::analyze_job({(data / relative).string()}, {}));
}

// The summary: everything before the first detail table.
std::string first_screen(const ReportInput& input) {
  const auto text = render_text(input);
  return text.substr(0, text.find("Time breakdown per device"));
}

TEST(ReportIdleExternal, TrainingRankNamesTheBlockingDtoHCopy) {
  const auto input = input_of("hta/training_rank0of16.json.gz");
  if (!input) GTEST_SKIP() << "no external traces";
  const auto screen = first_screen(*input);
  EXPECT_NE(screen.find("Why the GPU is idle"), std::string::npos);
  // Five such copies in the trace, the one of step 550 blocking the host 139 ms.
  EXPECT_NE(screen.find("cudaMemcpyAsync, DtoH to pageable memory, 704 B (5 times, 139 ms"), std::string::npos)
      << screen;
  EXPECT_NE(screen.find("blocking_copy"), std::string::npos);
}

TEST(ReportIdleExternal, DlrmStragglerHasItsReason) {
  const auto input = input_of("dlrm-8rank");
  if (!input) GTEST_SKIP() << "no external traces";
  const auto screen = first_screen(*input);
  const auto rank7 = screen.find("Stragglers: rank 7: the other ranks' GPUs idled 3.26 ms per step waiting for it");
  ASSERT_NE(rank7, std::string::npos) << screen;
  EXPECT_NE(screen.find("data_loading", rank7), std::string::npos) << screen;
  const auto summary = summarize_report(*input);
  ASSERT_TRUE(summary.job);
  // Ranked by the waits each causes (rank 7 is last at 5 of the 8 collectives): 7, then 5 and 4, which cost
  // the others 1.04 and 0.49 ms; 6, 2 and 0 start late (profiler start skew) but never arrive last.
  EXPECT_EQ(summary.job->job.stragglers, (std::vector<std::int32_t>{7, 5, 4}));
  EXPECT_EQ(summary.job->job.slowest_rank, 7);  // one answer to "who holds the job back"
  ASSERT_EQ(summary.job->stragglers.size(), 3U);
  EXPECT_EQ(summary.job->stragglers[0].last_arrivals, 5);
  EXPECT_EQ(summary.job->job.matched_collectives, 8);
  for (const auto& straggler : summary.job->stragglers) {
    double sum = 0;
    for (const auto ns : straggler.lateness_causes_ns) sum += ns;
    EXPECT_NEAR(sum, straggler.mean_lateness_ns, 1.0) << "rank " << straggler.rank;
  }
}

// Traces that record host ranges (Kineto) or the OS scheduler (the nsys 3.17 export's SCHED_EVENTS: its
// launching thread's running time between calls is host_bound, 26.9 % explained without it): at least 90 %
// of the idle time inside steps has a cause other than mixed or unrecorded. Judged by the thread that launched
// the work ending each interval, and with ranges enclosing their phase no evidence (issue 39), the DLRM job
// falls to 67.0 % (the time its main thread spends in `DistributedDataParallel.forward` and the torchrec
// waits outside every operation), hta/training_rank0of16 to 27.5 % and the sampled ranks to 15.6 and 19.9 %;
// printed.
TEST(ReportIdleExternal, IdleInStepsIsExplainedWhereTheHostIsRecorded) {
  for (const auto* trace : {"hta/nccl_data_rank0of2.json.gz", "hta/amd_mi250_train.json.gz",
                            "kineto-resnet50/resnet50_num_workers_0.pt.trace.json.gz",
                            "kineto-resnet50/resnet50_num_workers_4.pt.trace.json.gz",
                            "nsys-sqlite/nvfuser_h200_schema3.17.sqlite"}) {
    const auto input = input_of(trace);
    if (!input) GTEST_SKIP() << "no external traces";
    const auto idle = summarize_report(*input).idle;
    if (idle.in_steps.total_ns() == 0) continue;
    EXPECT_GE(idle.explained_in_steps(), 0.9) << trace;
  }
  for (const auto* trace : {"dlrm-8rank", "hta/training_rank0of16.json.gz", "hta/sampled_rank-0.json.gz",
                            "hta/sampled_rank-1.json.gz"}) {
    const auto input = input_of(trace);
    if (!input) GTEST_SKIP() << "no external traces";
    const auto idle = summarize_report(*input).idle;
    std::printf("%s: idle in steps explained %.1f%%\n", trace, 100.0 * idle.explained_in_steps());
    EXPECT_GT(idle.explained_in_steps(), 0.0) << trace;
    EXPECT_LE(idle.in_steps.explained_ns(), idle.in_steps.total_ns()) << trace;
  }
}

}  // namespace
}  // namespace gpuprof::report
