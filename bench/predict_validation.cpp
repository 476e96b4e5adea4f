// Prints every validation case of `gpuprof predict` (docs/predict.md) with what
// was predicted, what was measured and the error. Figures, not timings: the
// tests in tests/predict assert the bounds on the same files.
//   gpuprof_predict_validation [SCALING_DIR [EXTERNAL_DIR [SAMPLES_DIR [HELDOUT_PCIE_CSV]]]]

#include <fmt/format.h>

#include <cmath>
#include <algorithm>
#include <cstdio>
#include <map>
#include <set>
#include <vector>

#include <filesystem>

#include "gpuprof/predict/baselines.hpp"
#include "gpuprof/units/statistics.hpp"
#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/collective_validation.hpp"
#include "gpuprof/predict/comm_cases.hpp"
#include "gpuprof/predict/heldout_pcie_cases.hpp"
#include "gpuprof/predict/step_variability.hpp"
#include "gpuprof/predict/verdict_accounting.hpp"
#include "gpuprof/predict/verdict_lean.hpp"

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

// A hard case with the two no-skill guesses beside it (the constant efficiency fitted on the other sources of
// `pool`) and the verdict: N GPUs faster than one, predicted and measured.
// Beside an uncertain verdict, the centre's lean (too close within `variability` of 1x).
void print_hard_case(const gpuprof::predict::CaseResult& c, const std::vector<gpuprof::predict::CaseResult>& pool,
                     double variability) {
  const double linear = c.gpus * c.one_gpu;
  const double constant = linear * gpuprof::predict::fitted_efficiency(pool, c.source);
  fmt::print("{:<62} {:>9.4g} {:>9.4g} {:>+7.1f}% [{:.4g}, {:.4g}] {:<3} linear {:>+7.1f}% constant {:>+7.1f}% "
             "1 GPU {:.4g}: {} / {} {}{}\n",
             c.name, c.predicted, c.measured, 100 * c.error(), c.low, c.high, c.in_band() ? "in" : "OUT",
             100 * (linear / c.measured - 1), 100 * (constant / c.measured - 1), c.one_gpu,
             c.uncertain ? "uncertain" : c.predicted > c.one_gpu ? "faster" : "no faster",
             c.measured > c.one_gpu ? "faster" : "no faster",
             c.verdict_right ? "right" : c.uncertain ? "(not right)" : "WRONG",
             c.uncertain ? fmt::format("; lean {}", to_string(gpuprof::predict::lean_of(c.predicted / c.one_gpu,
                                                                                        variability)))
                         : std::string());
}

void print_coverage(const std::string& what, const gpuprof::predict::HeldOutCoverage& coverage) {
  fmt::print("  {:<58} {:>3} of {:<3} ({:.0f} %)\n", what, coverage.inside, coverage.cases, 100 * coverage.share());
}

// The stated 1-GPU variability the published rows are predicted with (step_variability.hpp).
double print_variability(const std::string& external, const std::string& samples) {
  const auto stated =
      gpuprof::predict::measure_step_variability(gpuprof::predict::variability_sources(external, samples));
  fmt::print("\n1-GPU step-to-step variability (robust sigma / mean of the steady step periods) of the real "
             "single-GPU traces:\n");
  for (const auto& t : stated.traces)
    fmt::print("  {:<58} {:>4} periods  {:>6.2f} %\n", t.trace, t.periods, 100 * t.share);
  fmt::print("stated variability (their median): {:.2f} % of the step, over {} traces\n", 100 * stated.median_share,
             stated.traces.size());
  return stated.median_share;
}

// The band's replica loss, calibrated leave one source out on the 8-GPU rows and checked on every row
// (docs/predict.md, "Band").
void print_band(const std::vector<gpuprof::predict::CaseResult>& eight,
                const std::vector<std::vector<gpuprof::predict::CaseResult>>& held_gpus) {
  namespace p = gpuprof::predict;
  constexpr double kCoverage = 0.8;
  const auto shipped_centre = p::with_centre_loss(eight, p::kPublishedCentreLoss);
  fmt::print("\nband: replica loss calibrated by source {:.4f} on the {} published 8-GPU runs at {:.0f} % (shipped "
             "{:.4f}; calibrated by row it would be {:.4f})\n",
             p::calibrate_by_source(shipped_centre, kCoverage), eight.size(), 100 * kCoverage,
             p::kPublishedReplicaLoss, p::calibrate_on(shipped_centre, kCoverage));
  std::vector<double> widths;
  for (const auto& c : eight) widths.push_back((c.high - c.low) / c.predicted);
  fmt::print("  band width (fast end - slow end, over the centre), median over the 8-GPU rows: {:.1f} %\n",
             100 * gpuprof::units::median(widths));
  print_coverage("leave one source out, published 8-GPU runs", p::band_left_out(eight, eight, kCoverage));
  for (const auto& rows : held_gpus)
    if (!rows.empty())
      print_coverage(fmt::format("leave one source out, published {}-GPU runs", rows.front().gpus),
                     p::band_left_out(eight, rows, kCoverage));
  std::vector<p::CaseResult> dgx1, a100;
  for (const auto& c : eight) (c.name.find("DGX-1") != std::string::npos ? dgx1 : a100).push_back(c);
  print_coverage("calibrated on DGX-1, checked on DGX A100", p::held_out(dgx1, a100, kCoverage));
  print_coverage("calibrated on DGX A100, checked on DGX-1", p::held_out(a100, dgx1, kCoverage));
}

// Verdicts decided by the band: right, uncertain (the band straddles 1x: counted apart, never right), wrong.
void print_verdicts(const std::string& what, const std::vector<gpuprof::predict::CaseResult>& rows) {
  const auto count = [&](bool no_faster_only, auto&& pick) {
    return std::count_if(rows.begin(), rows.end(), [&](const auto& r) {
      return (!no_faster_only || r.measured <= r.one_gpu) && pick(r);
    });
  };
  const auto right = [](const auto& r) { return r.verdict_right; };
  const auto open = [](const auto& r) { return r.uncertain; };
  const auto wrong = [](const auto& r) { return !r.verdict_right && !r.uncertain; };
  fmt::print("{}: verdict (N GPUs faster or not, from the band) right on {} of {} runs, uncertain {}, wrong {}; on "
             "the {} runs no faster than one: right {}, uncertain {}, wrong {}\n",
             what, count(false, right), rows.size(), count(false, open), count(false, wrong),
             count(true, [](const auto&) { return true; }), count(true, right), count(true, open), count(true, wrong));
}

// The verdict a user acts on (docs/predict.md, "The verdict, counted"): the band's call, the centre's lean where
// the call is uncertain, the centre's side, and the two baselines' sides on the same rows.
void print_account(const std::string& what, const gpuprof::predict::VerdictAccount& a) {
  const auto sides = [](const gpuprof::predict::SideCounts& s) {
    return fmt::format("right {:>3}, wrong {:>3}", s.right, s.wrong);
  };
  fmt::print("  {:<44} {:>3} rows: band's call right {:>3}, uncertain {:>3}, wrong {:>2}; lean of the uncertain right "
             "{:>2}, wrong {:>2}, too close {:>2}; call then lean right {:>3}, wrong {:>2}\n",
             what, a.rows, a.band_right, a.band_uncertain, a.band_wrong, a.lean_of_uncertain.right,
             a.lean_of_uncertain.wrong, a.lean_of_uncertain.too_close, a.acted_right(), a.acted_wrong());
  fmt::print("  {:<44} {:>8}  centre's side {}; linear (N x) {}; constant efficiency {}\n", "", "", sides(a.centre),
             sides(a.linear), sides(a.constant));
}

void print_accounting(const std::string& what, const gpuprof::predict::VerdictAccounting& a) {
  print_account(what, a.all);
  print_account("  of them no faster than one GPU", a.no_faster);
}

// The band of the PCIe machines' runs: its replica loss calibrated by source on them, and checked leave one
// source out (each source's runs with the figure of the others).
void print_pcie_band(const std::vector<gpuprof::predict::CaseResult>& rows) {
  namespace p = gpuprof::predict;
  constexpr double kCoverage = 0.8;
  std::vector<double> widths;
  for (const auto& c : rows) widths.push_back((c.high - c.low) / c.predicted);
  fmt::print("band on PCIe machines: replica loss calibrated by source {:.4f} on the {} Rossum runs at {:.0f} % "
             "(shipped {:.4f}); median band width (fast end - slow end, over the centre) left one source out {:.1f} %\n",
             p::calibrate_by_source(rows, kCoverage), rows.size(), 100 * kCoverage, p::kPcieReplicaLoss,
             100 * gpuprof::units::median(widths));
  print_coverage("leave one source out, Rossum runs", p::band_left_out(rows, rows, kCoverage));
  std::map<std::string, std::vector<p::CaseResult>> by_source;
  for (const auto& c : rows) by_source[c.source].push_back(c);
  for (const auto& [source, part] : by_source)
    print_coverage(fmt::format("  of them {}", source.substr(source.rfind(' ') + 1)), p::band_left_out(rows, part, kCoverage));
  print_coverage("shipped figure (in-sample, for reference)", p::coverage_with(rows, p::kPcieReplicaLoss));
}

// Rossum's CIFAR-10 rows counted per epoch: a diagnostic, not the headline (docs/predict.md, "The hard cases").
void print_per_epoch(const std::vector<gpuprof::predict::CaseResult>& rows) {
  std::vector<double> as_is, per_epoch;
  std::size_t within = 0, within_epoch = 0;
  fmt::print("\nCIFAR-10 at 4096 per GPU counted per epoch (if the partial last batch costs a full step; chosen after "
             "seeing these rows):\n");
  for (const auto& c : rows) {
    if (c.per_epoch_full_steps <= 0 || c.name.find("b4096") == std::string::npos) continue;
    const double epoch_error = c.per_epoch_full_steps / c.measured - 1;
    fmt::print("  {:<62} measured {:>9.4g} centre {:>+7.1f}% per epoch {:>9.4g} {:>+7.1f}%\n", c.name, c.measured,
               100 * c.error(), c.per_epoch_full_steps, 100 * epoch_error);
    as_is.push_back(std::abs(c.error())), per_epoch.push_back(std::abs(epoch_error));
    within += std::abs(c.error()) <= 0.10, within_epoch += std::abs(epoch_error) <= 0.10;
  }
  fmt::print("  {} runs: within 10 % {} as predicted, {} per epoch; median |error| {:.1f} % and {:.1f} %\n", as_is.size(),
             within, within_epoch, 100 * gpuprof::units::median(as_is), 100 * gpuprof::units::median(per_epoch));
}

// A candidate for the centre on PCIe machines (docs/predict.md, "The centre on Rossum's machines"): the replica
// loss of centre_loss.hpp, calibrated on the other Rossum sources (leave one source out), as a diagnostic.
void print_pcie_centre(const std::vector<gpuprof::predict::CaseResult>& rows) {
  namespace p = gpuprof::predict;
  const auto left_out = p::centre_left_out(rows, rows);
  const auto score = [](const std::vector<p::CaseResult>& cases) {
    std::vector<double> errors;
    for (const auto& c : cases) errors.push_back(std::abs(c.error()));
    const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return e <= 0.10; });
    return fmt::format("{} of {} within 10 %, median |error| {:.1f} %", within, errors.size(),
                       100 * gpuprof::units::median(errors));
  };
  fmt::print("\ncentre replica loss on the Rossum runs, calibrated on the other Rossum sources (a diagnostic):\n");
  std::set<std::string> sources;
  for (const auto& c : rows) sources.insert(c.source);
  for (const auto& source : sources) {
    std::vector<p::CaseResult> others, mine, mine_after;
    for (const auto& c : rows) (c.source == source ? mine : others).push_back(c);
    for (const auto& c : left_out)
      if (c.source == source) mine_after.push_back(c);
    fmt::print("  {:<60} loss {:.4f}: {} -> {}\n", source.substr(source.rfind('/') + 1),
               p::calibrate_centre_on(others).replica_loss, score(mine), score(mine_after));
  }
  fmt::print("  all: {} -> {}\n", score(rows), score(left_out));
}

// tf_cnn_benchmarks' independent runs (CaseResult::no_exchange), a diagnostic: where the prediction is above what the
// same GPUs reached exchanging nothing, the loss it misses is outside the exchange model.
void print_no_exchange(const std::vector<gpuprof::predict::CaseResult>& rows) {
  fmt::print("\nRossum tf_cnn runs against the same GPUs exchanging nothing (independent mode, measured; not an input):\n");
  std::size_t above = 0, misses = 0, misses_above = 0, with = 0;
  for (const auto& c : rows) {
    if (c.no_exchange <= 0) continue;
    ++with, above += c.predicted > c.no_exchange;
    const bool miss = std::abs(c.error()) > 0.10;
    misses += miss, misses_above += miss && c.predicted > c.no_exchange;
    fmt::print("  {:<62} predicted {:>6.3f}x measured {:>6.3f}x exchanging nothing {:>6.3f}x{}\n", c.name,
               c.predicted / c.one_gpu, c.measured / c.one_gpu, c.no_exchange / c.one_gpu,
               c.predicted > c.no_exchange ? "  (predicted above it)" : "");
  }
  fmt::print("  {} runs: predicted above exchanging nothing on {}; of the {} more than 10 % off, {}\n", with, above,
             misses, misses_above);
}

void print_score(const std::string& rows, const std::string& method, const gpuprof::predict::MethodScore& s) {
  fmt::print("  {:<34} {:<34} {:>3} of {:<3} within 10 % ({:>3.0f} %), median |error| {:>5.1f} %, verdict right {}{}\n",
             rows, method, s.within_10, s.rows, 100 * s.share_within(), 100 * s.median_error, s.verdict_right,
             s.uncertain ? fmt::format(", uncertain {}", s.uncertain) : std::string());
}

void print_margin(const std::string& rows, const gpuprof::predict::BaselineRows& part) {
  const auto better = std::max(part.linear.within_10, part.constant.within_10);
  const double better_median = std::min(part.linear.median_error, part.constant.median_error);
  fmt::print("  {:<34} margin over the better baseline: {:+d} rows within 10 %, median |error| {:+.1f} points\n", rows,
             static_cast<int>(part.predict.within_10) - static_cast<int>(better),
             100 * (part.predict.median_error - better_median));
}

// predict beside the two no-skill baselines on the same rows (docs/predict.md, "Against the baselines"); `scored`
// picks the rows reported (their constant efficiency still fitted on all `rows` of the other sources).
void print_baselines(const std::string& what, const std::vector<gpuprof::predict::CaseResult>& rows,
                     const gpuprof::predict::RowFilter& scored = {},
                     const gpuprof::predict::RowFilter& fitted_on = {}) {
  const auto c = gpuprof::predict::compare_with_baselines(rows, scored, fitted_on);
  fmt::print("\nagainst the baselines, {} (constant efficiency fitted on the other sources' rows):\n", what);
  for (const auto& [name, part] : {std::pair{"all rows", c.all}, {"measured efficiency < 0.85", c.low_efficiency},
                                   {"N GPUs no faster than one", c.no_faster}}) {
    print_score(name, "predict", part.predict);
    print_score("", "linear (N x)", part.linear);
    print_score("", "constant efficiency (leave one source out)", part.constant);
    if (part.predict.rows > 0) print_margin(name, part);
  }
}

// The same rows predicted from a trace of other seeds: with a stated variability the seed must not matter.
void print_seed_check(const std::vector<gpuprof::predict::CaseResult>& rows,
                      const std::vector<gpuprof::predict::CaseResult>& other_seeds) {
  double worst = 0;
  for (std::size_t i = 0; i < rows.size() && i < other_seeds.size(); ++i)
    worst = std::max(worst, std::abs(rows[i].predicted - other_seeds[i].predicted) / (rows[i].gpus * rows[i].one_gpu));
  fmt::print("seeds 100.. against 1000..: predicted 8-GPU efficiency differs by at most {:.4f}\n", worst);
}

void print_published(const std::vector<gpuprof::predict::CaseResult>& published) {
  int within = 0, in_band = 0, slower = 0, faster = 0;
  std::vector<double> amp, other;
  for (const auto& row : published) {
    print_case(row);
    within += std::abs(row.error()) <= 0.10, in_band += row.in_band();
    slower += row.measured < row.low, faster += row.measured > row.high;
    (row.name.find(" AMP") != std::string::npos ? amp : other).push_back(row.error());
  }
  fmt::print("published: {} of {} within 10 %, {} in the band (shipped replica loss); outside it {} slower than its "
             "slow end, {} faster than its fast end; median error AMP rows {:+.1f} % ({}), FP32/TF32 rows {:+.1f} % "
             "({})\n",
             within, published.size(), in_band, slower, faster, 100 * gpuprof::units::median(amp), amp.size(), 100 * gpuprof::units::median(other),
             other.size());
}

// One set of held-out PCIe rows: the band, the centre's errors by GPU count and configuration, predict beside the
// baselines (their constant efficiency fitted on the `calibration` rows only) and the verdicts.
void print_heldout_summary(const std::string& what, const std::vector<gpuprof::predict::CaseResult>& heldout,
                           const std::vector<gpuprof::predict::CaseResult>& calibration, double stated_spread) {
  namespace p = gpuprof::predict;
  std::vector<double> signed_errors, widths;
  std::size_t in_band = 0, below = 0, above = 0;
  std::map<std::string, std::vector<double>> by_group;
  for (const auto& row : heldout) {
    signed_errors.push_back(row.error()), widths.push_back((row.high - row.low) / row.predicted);
    in_band += row.in_band(), below += row.measured < row.low, above += row.measured > row.high;
    by_group[fmt::format("{} GPUs", row.gpus)].push_back(row.error());
    by_group[row.name.substr(0, row.name.find(" b"))].push_back(row.error());
  }
  fmt::print("\n{}: band (shipped, PCIe replica loss {:.4f}) holds {} of {} (measured below its slow end {}, above its "
             "fast end {}), median width {:.1f} % of the centre; median signed error of the centre {:+.1f} %\n",
             what, p::kPcieReplicaLoss, in_band, heldout.size(), below, above, 100 * gpuprof::units::median(widths),
             100 * gpuprof::units::median(signed_errors));
  for (const auto& [group, errors] : by_group) {
    const auto within = std::count_if(errors.begin(), errors.end(), [](double e) { return std::abs(e) <= 0.10; });
    fmt::print("  {:<40} {:>3} rows, within 10 % {:>3}, median signed error {:+.1f} %\n", group, errors.size(), within,
               100 * gpuprof::units::median(errors));
  }
  auto rows = calibration;
  rows.insert(rows.end(), heldout.begin(), heldout.end());
  const auto calibration_only = [](const p::CaseResult& row) { return !p::is_heldout_pcie_row(row); };
  fmt::print("(the constant efficiency is {:.3f}, the median of the {} calibration rows, published and Rossum, never "
             "of these rows)",
             p::fitted_efficiency(calibration, {}), calibration.size());
  print_baselines(what, rows, p::is_heldout_pcie_row, calibration_only);
  print_verdicts(what, heldout);
  print_accounting(what, p::account_verdicts(rows, stated_spread, p::is_heldout_pcie_row, calibration_only));
}

// The held-out check on modern consumer PCIe boxes without peer access (docs/predict.md, "Held-out check: modern
// PCIe boxes without peer access"): nothing fitted to these rows.
void print_heldout_pcie(const std::string& csv, const std::vector<gpuprof::predict::CaseResult>& calibration,
                        double stated_spread) {
  namespace p = gpuprof::predict;
  const auto work = work_folder();
  const auto check = p::run_heldout_pcie_cases(csv, work.string());
  fmt::print("\nheld-out check, modern consumer PCIe boxes without peer access ({}): {} N-GPU rows in the file, {} "
             "predicted, {} not checkable; {} 1-GPU rows\n",
             csv.substr(csv.rfind('/') + 1), check.data_rows, check.rows.size(), check.not_checkable.size(),
             check.one_gpu_rows);
  fmt::print("{:<62} {:>9} {:>9} {:>8} band, baselines' errors, verdict predicted / measured\n", "run", "predicted",
             "measured", "error");
  for (const auto& row : check.rows) {
    print_hard_case(row, calibration, stated_spread);
    fmt::print("    preset {} (chosen from the GPU's name, as without --link)\n", row.note);
  }
  for (const auto& line : check.not_checkable) fmt::print("  not checkable: {}\n", line);
  print_heldout_summary("held-out PCIe rows, --sync as the source (or its framework's default)", check.rows,
                        calibration, stated_spread);
  // What a user who gives no --sync gets: a ring all-reduce at the centre, the parameter servers in the band.
  print_heldout_summary("held-out PCIe rows without --sync",
                        p::run_heldout_pcie_cases(csv, work.string(), {.with_stated_sync = false}).rows, calibration,
                        stated_spread);
  // A diagnostic on the runs whose page gives no per-GPU batch: what predict says at each assumed batch. Not a
  // check (the batch chooses the answer), counted nowhere.
  fmt::print("\nnot checkable runs at an assumed per-GPU batch (a diagnostic, counted nowhere):\n");
  for (const std::int64_t batch : {1, 2, 4, 8, 16, 32})
    for (const auto& row : p::run_heldout_pcie_cases(csv, work.string(), {.assumed_batch = batch}).rows)
      if (row.name.find("(assumed)") != std::string::npos)
        fmt::print("  {:<62} predicted {:>6.3f}x band {:.3f}x to {:.3f}x: {}; measured {:.3f}x\n", row.name,
                   row.predicted / row.one_gpu, row.low / row.one_gpu, row.high / row.one_gpu,
                   row.uncertain                    ? "uncertain"
                   : row.predicted > row.one_gpu ? "faster"
                                                 : "no faster",
                   row.measured / row.one_gpu);
  std::filesystem::remove_all(work);
}

void print_cases(const std::string& dir, double stated_spread, const std::string& heldout_pcie) {
  namespace p = gpuprof::predict;
  const auto work = work_folder();
  fmt::print("\n{:<62} {:>12} {:>12} {:>8} {}\n", "case", "predicted", "measured", "error", "band");
  const auto gru = p::run_gru_case(dir, work.string());
  for (const auto& row : gru.rows) print_case(row);
  fmt::print("GRU: fitted gradient bytes {}; break-even batch predicted {:.0f}, measured {:.0f}\n",
             gru.fitted_gradient_bytes, gru.predicted_break_even, gru.measured_break_even);
  const auto towers = p::run_towers_case(dir, work.string());
  print_case(towers);
  // Every published row with its centre loss calibrated on the other sources' 8-GPU rows.
  const auto raw8 = p::run_published_cases(dir, work.string(), {8, stated_spread});
  const auto published = p::centre_left_out(raw8, raw8);
  fmt::print("\npublished 8-GPU rows, centre loss calibrated leave one source out (shipped: exposed share {:.2f}, "
             "replica loss {:.4f}; calibrated on all 8-GPU rows: {:.2f}, {:.4f})\n",
             p::kPublishedCentreLoss.exposed_share, p::kPublishedCentreLoss.replica_loss,
             p::calibrate_centre_on(raw8).exposed_share, p::calibrate_centre_on(raw8).replica_loss);
  print_published(published);
  std::set<std::string> sources;
  for (const auto& c : raw8) sources.insert(c.source);
  for (const auto& source : sources) {
    std::vector<p::CaseResult> others;
    for (const auto& c : raw8)
      if (c.source != source) others.push_back(c);
    const auto loss = p::calibrate_centre_on(others);
    fmt::print("  without {:<78} exposed share {:.2f}, replica loss {:.4f}\n", source.substr(source.find(':') + 1),
               loss.exposed_share, loss.replica_loss);
  }
  print_seed_check(published,
                   p::centre_left_out(raw8, p::run_published_cases(dir, work.string(), {8, stated_spread, 1000})));
  // Predict's verdicts from its band, the replica loss left one source out, as on the Rossum runs.
  print_baselines("published 8-GPU runs", p::band_rows_left_out(published, published, 0.8));
  std::vector<std::vector<p::CaseResult>> held_gpus;
  for (const std::int32_t gpus : {4, 2}) {
    held_gpus.push_back(p::centre_left_out(raw8, p::run_published_cases(dir, work.string(), {gpus, stated_spread})));
    print_baselines(fmt::format("published {}-GPU runs (centre calibrated on the other sources' 8-GPU rows)", gpus),
                    p::band_rows_left_out(published, held_gpus.back(), 0.8));
  }
  print_band(published, held_gpus);
  // The hard cases: every Rossum run beside the published ones, so the constant efficiency of a Rossum row is
  // fitted on the published rows (another source), and the verdict on the "no faster" runs is scored.
  auto hard = p::run_rossum_cases(dir, work.string());
  const auto keras = p::run_rossum_keras_cases(dir, work.string());
  hard.insert(hard.end(), keras.begin(), keras.end());
  const auto tf_cnn = p::run_rossum_tf_cnn_cases(dir, work.string());
  const auto mlp = p::run_rossum_mlp_cases(dir, work.string());
  hard.insert(hard.end(), mlp.begin(), mlp.end());
  hard.insert(hard.end(), tf_cnn.begin(), tf_cnn.end());
  auto pool = hard;
  pool.insert(pool.end(), published.begin(), published.end());
  fmt::print("\n{:<62} {:>9} {:>9} {:>8} band, baselines' errors, verdict predicted / measured\n", "Rossum run",
             "predicted", "measured", "error");
  // Each run's band with the replica loss calibrated on the other sources' runs of PCIe machines.
  hard = p::band_rows_left_out(pool, hard, 0.8);
  pool = hard;
  pool.insert(pool.end(), published.begin(), published.end());
  for (const auto& row : hard) print_hard_case(row, pool, stated_spread);
  print_verdicts("Rossum", hard);
  print_pcie_band(hard);
  auto every_row = hard;
  every_row.insert(every_row.end(), published.begin(), published.end());
  print_coverage("leave one source out, Rossum and published 8-GPU runs together",
                 p::band_left_out(every_row, every_row, 0.8));
  print_per_epoch(hard);
  print_pcie_centre(hard);
  print_no_exchange(hard);
  print_baselines("Rossum runs alone", hard);
  print_baselines("of them the tf_cnn log of 22 September (ImageNet models, added as a check; band left one source "
                  "out, no figure fitted to them)",
                  hard, p::from_rossum_imagenet_log);
  // Each set scored on its own rows (the constant efficiency fitted on the set's other sources), then together.
  fmt::print("\nverdicts (lean: the centre's side, too close within the stated 1-GPU variability {:.2f} % of 1x):\n",
             100 * stated_spread);
  p::VerdictAccounting every_set;
  const std::vector<std::pair<std::string, std::vector<p::CaseResult>>> sets = {
      {"published 8-GPU runs", p::band_rows_left_out(published, published, 0.8)},
      {"published 4-GPU runs", p::band_rows_left_out(published, held_gpus[0], 0.8)},
      {"published 2-GPU runs", p::band_rows_left_out(published, held_gpus[1], 0.8)},
      {"Rossum runs", hard}};
  for (const auto& [name, rows] : sets) {
    const auto account = p::account_verdicts(rows, stated_spread);
    print_accounting(name, account);
    every_set += account;
  }
  print_accounting("published and Rossum runs together", every_set);
  print_accounting("of the Rossum runs, the 22 September log", p::account_verdicts(hard, stated_spread,
                                                                                 p::from_rossum_imagenet_log));
  hard.insert(hard.end(), published.begin(), published.end());
  print_baselines("Rossum runs with the published 8-GPU runs", hard);
  std::filesystem::remove_all(work);
  auto calibration = hard;
  for (const auto& rows : held_gpus) calibration.insert(calibration.end(), rows.begin(), rows.end());
  print_heldout_pcie(heldout_pcie, calibration, stated_spread);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : GPUPROF_DEFAULT_SCALING_DIR;
  const std::string external = argc > 2 ? argv[2] : GPUPROF_DEFAULT_EXTERNAL_DIR;
  const std::string samples = argc > 3 ? argv[3] : GPUPROF_DEFAULT_SAMPLES_DIR;
  const std::string heldout_pcie = argc > 4 ? argv[4] : GPUPROF_DEFAULT_HELDOUT_PCIE;
  try {
    print_collectives(dir);
    print_comm_cases(external, dir);
    print_cases(dir, print_variability(external, samples), heldout_pcie);
  } catch (const std::exception& error) {
    fmt::print(stderr, "gpuprof_predict_validation: {}\n", error.what());
    return 1;
  }
  return 0;
}
