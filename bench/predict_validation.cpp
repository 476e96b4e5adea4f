// Prints every validation case of `gpuprof predict` (docs/predict.md) with what
// was predicted, what was measured and the error. Figures, not timings: the
// tests in tests/predict assert the bounds on the same files.
//   gpuprof_predict_validation [SCALING_DIR [EXTERNAL_DIR]]

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/collective_validation.hpp"
#include "gpuprof/predict/comm_validation.hpp"

namespace {

void print_collectives(const std::string& dir) {
  fmt::print(
      "All-reduce model, held-out sources (median |predicted/measured - 1|; bounds 10 % >= 1 MiB, 25 % below)\n");
  fmt::print("{:<48} {:>6} {:>9} {:>9} {:>6} {:>9} {:>9}\n", "train -> test", ">=1MiB", "median", "worst", "<1MiB",
             "median", "worst");
  for (const auto& check : gpuprof::predict::run_collective_checks(dir))
    fmt::print("{:<48} {:>6} {:>8.1f}% {:>8.1f}% {:>6} {:>8.1f}% {:>8.1f}%\n", check.name, check.large_points,
               100 * check.large_median_error, 100 * check.large_worst_error, check.small_points,
               100 * check.small_median_error, 100 * check.small_worst_error);
}

std::filesystem::path work_folder() {
  const auto work = std::filesystem::temp_directory_path() / "gpuprof_predict_validation";
  std::filesystem::create_directories(work);
  return work;
}

void print_comm_cases(const std::string& external, const std::string& scaling) {
  fmt::print("\nLeave communication out (communication kernels predicted from the collectives' sizes; bounds: median "
             "step error 15 %, exposed-communication share within 10 points)\n");
  fmt::print("{:<30} {:<10} {:>10} {:>10} {:>7} {:>6} {:>6} {:>9} {:>9} {:>7} {:>6} {}\n", "trace", "link", "step",
             "predicted", "error", "exp%", "pred%", "comm/step", "predicted", "alone", "exp%", "sized");
  const auto work = work_folder();
  std::vector<double> errors, share_points, alone_errors, alone_points;
  for (const auto& c : gpuprof::predict::run_comm_cases(external, scaling, work.string())) {
    const double alone_error = c.transfer_only_step_ns / c.measured_step_ns - 1.0;
    fmt::print("{:<30} {:<10} {:>8.3f}ms {:>8.3f}ms {:>+6.1f}% {:>6.1f} {:>6.1f} {:>7.3f}ms {:>7.3f}ms {:>+6.1f}% "
               "{:>6.1f} {}/{} kernels ({:.0f}% of comm time), {} partner ranks; groups: {}\n",
               c.trace.substr(0, 30), c.link_name, c.measured_step_ns / 1e6, c.predicted_step_ns / 1e6,
               100 * c.step_error(), 100 * c.measured_exposed_share, 100 * c.predicted_exposed_share,
               c.measured_comm_ns / 1e6, c.predicted_comm_ns / 1e6, 100 * alone_error,
               100 * c.transfer_only_exposed_share, c.sized_kernels, c.comm_kernels, 100 * c.sized_share,
               c.partner_ranks, c.group_source);
    errors.push_back(std::abs(c.step_error()));
    share_points.push_back(100 * std::abs(c.predicted_exposed_share - c.measured_exposed_share));
    alone_errors.push_back(std::abs(alone_error));
    alone_points.push_back(100 * std::abs(c.transfer_only_exposed_share - c.measured_exposed_share));
  }
  const auto worst = [](const std::vector<double>& v) {
    return v.empty() ? 0.0 : *std::max_element(v.begin(), v.end());
  };
  fmt::print("with the partners' arrivals: median |step error| {:.1f} % (worst {:.1f} %), median exposed-share "
             "difference {:.1f} points (worst {:.1f})\n",
             100 * gpuprof::units::median(errors), 100 * worst(errors), gpuprof::units::median(share_points), worst(share_points));
  fmt::print("transfer alone:              median |step error| {:.1f} % (worst {:.1f} %), median exposed-share "
             "difference {:.1f} points (worst {:.1f})\n",
             100 * gpuprof::units::median(alone_errors), 100 * worst(alone_errors), gpuprof::units::median(alone_points), worst(alone_points));
  std::filesystem::remove_all(work);
}

void print_case(const gpuprof::predict::CaseResult& c) {
  fmt::print("{:<62} {:>12.4g} {:>12.4g} {:>+7.1f}% [{:.4g}, {:.4g}] {:<3} {}\n", c.name, c.predicted, c.measured,
             100 * c.error(), c.low, c.high, c.in_band() ? "in" : "OUT", c.note);
}

void print_coverage(const std::string& what, const gpuprof::predict::HeldOutCoverage& coverage) {
  fmt::print("  {:<58} {:>3} of {:<3} ({:.0f} %)\n", what, coverage.inside, coverage.cases, 100 * coverage.share());
}

// The band's one published figure, the replica loss: calibrated on the 8-GPU rows above, then checked on
// runs it did not see (docs/predict.md, "Band").
void print_calibration(const std::string& dir, const std::string& work,
                       const std::vector<gpuprof::predict::CaseResult>& published) {
  namespace p = gpuprof::predict;
  constexpr double kCoverage = 0.8;
  fmt::print("\nreplica loss: calibrated {:.4f} on the {} published 8-GPU runs at {:.0f} % (shipped {:.4f})\n",
             p::calibrate_on(published, kCoverage), published.size(), 100 * kCoverage, p::kPublishedReplicaLoss);
  std::vector<p::CaseResult> dgx1, a100;
  for (const auto& c : published) (c.name.find("DGX-1") != std::string::npos ? dgx1 : a100).push_back(c);
  print_coverage("leave one out, published 8-GPU runs", p::leave_one_out(published, kCoverage));
  // Leave one source out: each README's rows checked with the loss calibrated on the other READMEs' rows.
  p::HeldOutCoverage by_source;
  std::set<std::string> sources;
  for (const auto& c : published) sources.insert(c.source);
  for (const auto& source : sources) {
    std::vector<p::CaseResult> train, test;
    for (const auto& c : published) (c.source == source ? test : train).push_back(c);
    const auto part = p::held_out(train, test, kCoverage);
    by_source.inside += part.inside, by_source.cases += part.cases;
  }
  print_coverage(fmt::format("leave one source out ({} sources), published 8-GPU runs", sources.size()), by_source);
  print_coverage("calibrated on DGX-1, checked on DGX A100", p::held_out(dgx1, a100, kCoverage));
  print_coverage("calibrated on DGX A100, checked on DGX-1", p::held_out(a100, dgx1, kCoverage));
  for (const std::int32_t gpus : {2, 4}) {
    const auto runs = p::run_published_cases(dir, work, gpus);
    std::vector<double> errors;
    for (const auto& c : runs) errors.push_back(std::abs(c.error()));
    const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.10; });
    print_coverage(fmt::format("published {}-GPU runs (held out), shipped loss", gpus),
                   p::coverage_with(runs, p::kPublishedReplicaLoss));
    fmt::print("  {:<58} {:>3} of {:<3} within 10 %, median error {:.1f} %\n", "", within, runs.size(),
               100 * gpuprof::units::median(errors));
  }
}

void print_score(const std::string& rows, const std::string& method, const gpuprof::predict::MethodScore& s) {
  fmt::print("  {:<34} {:<34} {:>3} of {:<3} within 10 % ({:>3.0f} %), median |error| {:>5.1f} %, verdict right {}\n",
             rows, method, s.within_10, s.rows, 100 * s.share_within(), 100 * s.median_error, s.verdict_right);
}

// predict beside the two no-skill baselines on the same rows (docs/predict.md, "Against the baselines").
void print_baselines(const std::string& what, const std::vector<gpuprof::predict::CaseResult>& rows) {
  const auto c = gpuprof::predict::compare_with_baselines(rows);
  fmt::print("\nagainst the baselines, {} (constant efficiency fitted on the other sources' rows):\n", what);
  for (const auto& [name, part] : {std::pair{"all rows", c.all}, {"measured efficiency < 0.85", c.low_efficiency},
                                   {"N GPUs no faster than one", c.no_faster}}) {
    print_score(name, "predict", part.predict);
    print_score("", "linear (N x)", part.linear);
    print_score("", "constant efficiency (leave one source out)", part.constant);
  }
}

void print_cases(const std::string& dir) {
  const auto work = work_folder();
  fmt::print("\n{:<62} {:>12} {:>12} {:>8} {}\n", "case", "predicted", "measured", "error", "band");
  const auto gru = gpuprof::predict::run_gru_case(dir, work.string());
  for (const auto& row : gru.rows) print_case(row);
  fmt::print("GRU: fitted gradient bytes {}; break-even batch predicted {:.0f}, measured {:.0f}\n",
             gru.fitted_gradient_bytes, gru.predicted_break_even, gru.measured_break_even);
  const auto towers = gpuprof::predict::run_towers_case(dir, work.string());
  print_case(towers);
  const auto published = gpuprof::predict::run_published_cases(dir, work.string());
  int within = 0, in_band = 0, slower = 0, faster = 0;
  std::vector<double> amp, other;
  for (const auto& row : published) {
    print_case(row);
    within += std::abs(row.error()) <= 0.10, in_band += row.in_band();
    // Throughputs: below the band's low end is slower than even no overlap, the slower link and contention.
    slower += row.measured < row.low, faster += row.measured > row.high;
    (row.name.find(" AMP") != std::string::npos ? amp : other).push_back(row.error());
  }
  fmt::print("published: {} of {} within 10 %, {} in the band; outside it {} slower than its slow end, {} faster than "
             "its fast end; median error AMP rows {:+.1f} % ({}), FP32/TF32 rows {:+.1f} % ({})\n",
             within, published.size(), in_band, slower, faster, 100 * gpuprof::units::median(amp), amp.size(), 100 * gpuprof::units::median(other),
             other.size());
  const auto classic_in = std::count_if(gru.rows.begin(), gru.rows.end(), [](const auto& r) { return r.in_band(); }) +
                          (towers.in_band() ? 1 : 0);
  const auto cases = gru.rows.size() + 1 + published.size();
  fmt::print("band: the truth inside in {} of {} classic rows and {} of {} published, {} of {} in all ({:.0f} %)\n",
             classic_in, gru.rows.size() + 1, in_band, published.size(), classic_in + in_band, cases,
             100.0 * static_cast<double>(classic_in + in_band) / static_cast<double>(cases));
  print_baselines("published 8-GPU runs", published);
  // The hard cases: every Rossum run beside the published ones, so the constant efficiency of a Rossum row is
  // fitted on the published rows (another source), and the verdict on the "no faster" runs is scored.
  auto hard = gpuprof::predict::run_rossum_cases(dir, work.string());
  for (const auto& row : hard) print_case(row);
  const auto right = std::count_if(hard.begin(), hard.end(), [](const auto& r) { return r.verdict_right; });
  fmt::print("Rossum 7gforce: verdict (N GPUs faster or not) right on {} of {} runs\n", right, hard.size());
  hard.insert(hard.end(), published.begin(), published.end());
  print_baselines("Rossum 7gforce CIFAR-10 runs with the published 8-GPU runs", hard);
  for (const std::int32_t gpus : {2, 4})
    print_baselines(fmt::format("published {}-GPU runs", gpus),
                    gpuprof::predict::run_published_cases(dir, work.string(), gpus));
  print_calibration(dir, work.string(), published);
  std::filesystem::remove_all(work);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : GPUPROF_DEFAULT_SCALING_DIR;
  const std::string external = argc > 2 ? argv[2] : GPUPROF_DEFAULT_EXTERNAL_DIR;
  try {
    print_collectives(dir);
    print_comm_cases(external, dir);
    print_cases(dir);
  } catch (const std::exception& error) {
    fmt::print(stderr, "gpuprof_predict_validation: {}\n", error.what());
    return 1;
  }
  return 0;
}
