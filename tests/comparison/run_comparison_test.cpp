#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "gpuprof/comparison/comparison_writers.hpp"
#include "gpuprof/comparison/kernel_diff.hpp"
#include "gpuprof/comparison/run_comparison.hpp"
#include "gpuprof/comparison/step_terms.hpp"
#include "gpuprof/report/report_summary.hpp"
#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::comparison {
namespace {

using gpuprof::testing::TemporaryFolder;

// Without a batch size by default: the traces then leave the global batch to an assumption.
job::JobAnalysis synthetic_job(const TemporaryFolder& folder, std::int32_t devices,
                               std::optional<std::int64_t> batch_size = std::nullopt) {
  synthetic::SynthOptions options;
  options.devices = devices;
  options.batch_size = batch_size;
  options.steps = 8;
  options.kernels_per_step = 12;
  const auto path = folder.file(std::to_string(devices) + "gpu" + (batch_size ? "_batch" : "") + ".sqlite");
  synthetic::write_synthetic_trace(path, options);
  job::JobOptions job_options;
  job_options.analysis.top_kernels = 0;
  return job::analyze_job({path}, job_options);
}

double waterfall_sum(const RunComparison& comparison) {
  double sum = 0;
  for (const auto& term : comparison.waterfall) sum += term.delta_ns;
  return sum;
}

const WaterfallTerm& term(const RunComparison& comparison, const std::string& name) {
  for (const auto& entry : comparison.waterfall) {
    if (entry.name == name) return entry;
  }
  throw std::runtime_error("no term " + name);
}

class Comparison : public ::testing::Test {
 protected:
  void SetUp() override {
    one_ = synthetic_job(folder_, 1);
    two_ = synthetic_job(folder_, 2);
  }
  TemporaryFolder folder_;
  job::JobAnalysis one_, two_;
};

// One set of windows per figure (issue 28): the report summary's per-step parts are compare's waterfall terms.
TEST_F(Comparison, ReportSummaryPerStepEqualsCompareTerms) {
  for (auto* job : {&one_, &two_}) {
    const auto sums = sum_step_terms(*job);
    const auto samples = static_cast<double>(sums.samples);
    const auto summary = report::summarize_report(report::report_input(job::JobAnalysis(*job)));
    const auto& parts = summary.period.parts;
    using Kind = report::PeriodPartKind;
    EXPECT_EQ(summary.period.windows, sums.samples);
    EXPECT_DOUBLE_EQ(summary.period.step_ns, static_cast<double>(sums.period_ns) / samples);
    EXPECT_DOUBLE_EQ(parts[static_cast<std::size_t>(Kind::computation)].per_step_ns,
                     static_cast<double>(sums.computation_ns) / samples);
    EXPECT_DOUBLE_EQ(parts[static_cast<std::size_t>(Kind::batch_gaps)].per_step_ns,
                     static_cast<double>(sums.batch_gap_ns) / samples);
    EXPECT_DOUBLE_EQ(parts[static_cast<std::size_t>(Kind::idle_in_steps)].per_step_ns,
                     static_cast<double>(sums.other_ns) / samples);
  }
}

job::JobAnalysis job_of(std::int64_t windows, const std::vector<job::StepKernel>& kernels) {
  job::JobAnalysis job;
  job.ranks.emplace_back();
  job.ranks.back().step_basis_windows = windows;
  job.ranks.back().step_kernels = kernels;
  return job;
}

// Kernel rows are per steady step (the waterfall's windows), and variants sharing a short name add up to
// their family row, listed below it (issue 28).
TEST(KernelDiff, PerSteadyStepWithVariantsUnderTheirFamily) {
  const auto base = job_of(2, {{"void ns::k<1>(int)", "k", "computation", 200, 2},
                               {"void ns::k<2>(int)", "k", "computation", 100, 2},
                               {"gemm", "gemm", "computation", 50, 2}});
  const auto other = job_of(4, {{"void ns::k<1>(int)", "k", "computation", 800, 4}, {"gemm", "gemm", "computation", 40, 4}});
  const auto changes = diff_kernels(base, other, 0);
  ASSERT_EQ(changes.size(), 2U);
  const auto& family = changes[0];
  EXPECT_EQ(family.short_name, "k");
  EXPECT_DOUBLE_EQ(family.base_ns_per_step, 150.0);
  EXPECT_DOUBLE_EQ(family.other_ns_per_step, 200.0);
  EXPECT_DOUBLE_EQ(family.delta_ns_per_step, 50.0);
  ASSERT_EQ(family.variants.size(), 2U);
  EXPECT_EQ(family.variants[0].short_name, "k #1");  // k<1>: +100 per step, the larger change first
  EXPECT_DOUBLE_EQ(family.variants[0].delta_ns_per_step, 100.0);
  EXPECT_EQ(family.variants[1].short_name, "k #2");
  EXPECT_DOUBLE_EQ(family.variants[1].delta_ns_per_step, -50.0);
  EXPECT_TRUE(changes[1].variants.empty());
  EXPECT_DOUBLE_EQ(changes[1].base_ns_per_step, 25.0);
  EXPECT_DOUBLE_EQ(changes[1].other_ns_per_step, 10.0);
}

TEST_F(Comparison, PartsAddUpToStepTimeExactlyInIntegerSums) {
  for (const auto* job : {&one_, &two_}) {
    const auto sums = sum_step_terms(*job);
    EXPECT_GT(sums.samples, 0);
    EXPECT_EQ(sums.parts(), sums.period_ns);
  }
}

TEST_F(Comparison, WaterfallAddsUpToMeasuredDifference) {
  const auto comparison = compare_runs(one_, two_);
  EXPECT_NEAR(waterfall_sum(comparison), comparison.delta_step_ns, 1e-6);
  EXPECT_NEAR(comparison.base.terms.total(), comparison.base.step_ns, 1e-6);
  EXPECT_NEAR(comparison.other.terms.total(), comparison.other.step_ns, 1e-6);
  EXPECT_DOUBLE_EQ(comparison.delta_step_ns, comparison.other.step_ns - comparison.base.step_ns);
  // And the other way round: the same terms with the opposite sign.
  const auto reverse = compare_runs(two_, one_);
  EXPECT_NEAR(waterfall_sum(reverse), -comparison.delta_step_ns, 1e-6);
}

TEST_F(Comparison, TermsMoveTheWayTwoGpusExplain) {
  const auto comparison = compare_runs(one_, two_);
  EXPECT_EQ(comparison.base.gpus, 1);
  EXPECT_EQ(comparison.other.gpus, 2);
  // One GPU has nothing to communicate or wait for.
  EXPECT_EQ(term(comparison, "exposed communication").base_ns, 0.0);
  EXPECT_EQ(term(comparison, "synchronization wait").base_ns, 0.0);
  EXPECT_GE(term(comparison, "exposed communication").delta_ns, 0.0);
  EXPECT_GE(term(comparison, "synchronization wait").delta_ns, 0.0);
  // The all-reduce appears in the kernel diff only on the two-GPU side.
  bool found = false;
  for (const auto& kernel : comparison.kernels) {
    if (kernel.category != "communication") continue;
    found = true;
    EXPECT_EQ(kernel.base_ns_per_step, 0.0);
    EXPECT_GT(kernel.delta_ns_per_step, 0.0);
    EXPECT_DOUBLE_EQ(kernel.other_instances_per_step, 1.0);
  }
  EXPECT_TRUE(found);
}

TEST_F(Comparison, SpeedupAndScalingEfficiency) {
  const auto by_step = compare_runs(one_, two_);
  EXPECT_EQ(by_step.speedup_basis, "step time");
  EXPECT_DOUBLE_EQ(by_step.speedup, by_step.base.step_ns / by_step.other.step_ns);
  ASSERT_TRUE(by_step.scaling_efficiency);
  EXPECT_DOUBLE_EQ(*by_step.scaling_efficiency, by_step.speedup / 2.0);
  ASSERT_EQ(by_step.assumptions.size(), 1U);
  EXPECT_NE(by_step.assumptions[0].find("same global batch"), std::string::npos);
  // Same per-GPU batch (weak scaling): the global batch doubles.
  const auto by_throughput = compare_runs(one_, two_, {64, 128, 20});
  EXPECT_EQ(by_throughput.speedup_basis, "throughput");
  ASSERT_TRUE(by_throughput.base.samples_per_second && by_throughput.other.samples_per_second);
  EXPECT_NEAR(by_throughput.speedup, 2.0 * by_step.speedup, 1e-9);
  EXPECT_NEAR(*by_throughput.base.samples_per_second, 64e9 / by_throughput.base.step_ns, 1e-6);
}

TEST_F(Comparison, ScalingEfficiencyOnlyWhenGpuCountsDiffer) {
  const auto same = compare_runs(one_, one_);
  EXPECT_FALSE(same.scaling_efficiency);
  EXPECT_NE(render_comparison(report::Format::json, same).find("\"scaling_efficiency\": null"), std::string::npos);
  bool scaling_table = false;
  for (const auto& table : comparison_tables(same)) {
    if (table.id != "scaling") continue;
    scaling_table = true;
    ASSERT_EQ(table.columns[3], "Scaling efficiency%");
    EXPECT_EQ(table.rows.at(0).at(3).text, "-");
  }
  EXPECT_TRUE(scaling_table);
  EXPECT_TRUE(compare_runs(one_, two_).scaling_efficiency);
}

TEST_F(Comparison, BatchSizesFromTheTracesNeedNoAssumption) {
  const auto one = synthetic_job(folder_, 1, 64);
  const auto two = synthetic_job(folder_, 2, 128);
  const auto comparison = compare_runs(one, two);
  EXPECT_EQ(comparison.speedup_basis, "throughput");
  EXPECT_EQ(comparison.base.batch_source, "meta batch_size x ranks");
  EXPECT_EQ(comparison.other.batch, 128);
  EXPECT_TRUE(comparison.assumptions.empty());
  EXPECT_EQ(render_comparison(report::Format::text, comparison).find("ASSUMPTION"), std::string::npos);
}

TEST_F(Comparison, AnAssumptionIsStatedInTheFirstLinesOfEveryFormat) {
  const auto comparison = compare_runs(one_, two_);
  ASSERT_FALSE(comparison.assumptions.empty());
  const auto text = render_comparison(report::Format::text, comparison);
  EXPECT_EQ(text.find("gpuprof compare\n\nASSUMPTION: both runs process the same global batch"), 0U) << text;
  EXPECT_LT(render_comparison(report::Format::markdown, comparison).find("**Assumption:**"), 40U);
  const auto html = render_comparison(report::Format::html, comparison);
  EXPECT_LT(html.find("Assumption: both runs"), html.find("base:"));
  const auto json = render_comparison(report::Format::json, comparison);
  EXPECT_LT(json.find("\"assumptions\": [\n  \"both runs"), json.find("\"base\""));
}

TEST_F(Comparison, BatchGapTermsAreSplitByCauseAndStillAddUp) {
  const auto comparison = compare_runs(one_, two_);
  for (const auto* side : {&comparison.base, &comparison.other}) {
    ASSERT_FALSE(side->terms.batch_gap_by_cause.empty());
    double by_cause = 0;
    for (const auto& [cause, value] : side->terms.batch_gap_by_cause) by_cause += value;
    EXPECT_NEAR(by_cause, side->terms.batch_gap_ns, 1e-6);
    EXPECT_GT(side->terms.batch_gap_ns, 0.0);
  }
  bool split = false;
  for (const auto& entry : comparison.waterfall) {
    EXPECT_NE(entry.name, "batch gaps");
    split = split || entry.name.starts_with("batch gaps: ");
  }
  EXPECT_TRUE(split);
  EXPECT_NEAR(waterfall_sum(comparison), comparison.delta_step_ns, 1e-6);
  for (const auto& job : {one_, two_}) {
    const auto sums = sum_step_terms(job);
    std::int64_t by_cause = 0;
    for (const auto value : sums.batch_gap_by_cause_ns) by_cause += value;
    EXPECT_EQ(by_cause, sums.batch_gap_ns);
    EXPECT_EQ(sums.batch_gap_by_cause_ns[kUnattributedGapSlot], 0);
  }
}

TEST_F(Comparison, KernelDiffIsSortedByChangeAndBounded) {
  const auto comparison = compare_runs(one_, two_, {std::nullopt, std::nullopt, 3});
  ASSERT_EQ(comparison.kernels.size(), 3U);
  for (std::size_t i = 1; i < comparison.kernels.size(); ++i) {
    EXPECT_GE(std::abs(comparison.kernels[i - 1].delta_ns_per_step), std::abs(comparison.kernels[i].delta_ns_per_step));
  }
}

std::string golden_path(const std::string& name) { return std::string(GPUPROF_COMPARISON_GOLDEN_DIR) + "/" + name; }

// Compares with the golden file, or rewrites it with GPUPROF_UPDATE_GOLDEN=1.
void check_golden(const std::string& name, const std::string& actual) {
  if (std::getenv("GPUPROF_UPDATE_GOLDEN") != nullptr) {
    gpuprof::testing::write_file(golden_path(name), actual);
    return;
  }
  EXPECT_EQ(actual, gpuprof::testing::read_file(golden_path(name))) << "run with GPUPROF_UPDATE_GOLDEN=1 to update";
}

TEST_F(Comparison, GoldenTextAndJson) {
  auto comparison = compare_runs(one_, two_, {std::nullopt, std::nullopt, 8});
  // Temporary paths differ per run; the golden files name the runs instead.
  comparison.base.inputs = {"1gpu.sqlite"};
  comparison.other.inputs = {"2gpu.sqlite"};
  check_golden("compare.txt", render_comparison(report::Format::text, comparison));
  check_golden("compare.json", render_comparison(report::Format::json, comparison));
}

TEST_F(Comparison, EveryFormatRenders) {
  const auto comparison = compare_runs(one_, two_);
  for (const auto format : {report::Format::text, report::Format::markdown, report::Format::csv, report::Format::json,
                            report::Format::html}) {
    const auto text = render_comparison(format, comparison);
    EXPECT_NE(text.find("waterfall"), std::string::npos) << text.substr(0, 200);
  }
}

}  // namespace
}  // namespace gpuprof::comparison
