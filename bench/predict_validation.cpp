// Prints every validation case of `gpuprof predict` (docs/predict.md) with what
// was predicted, what was measured and the error. Figures, not timings: the
// tests in tests/predict assert the bounds on the same files.
//   gpuprof_predict_validation [SCALING_DIR]

#include <fmt/format.h>

#include <cmath>
#include <cstdio>

#include <filesystem>

#include "gpuprof/predict/case_validation.hpp"
#include "gpuprof/predict/collective_validation.hpp"

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

void print_case(const gpuprof::predict::CaseResult& c) {
  fmt::print("{:<62} {:>12.4g} {:>12.4g} {:>+7.1f}% [{:.4g}, {:.4g}] {:<3} {}\n", c.name, c.predicted, c.measured,
             100 * c.error(), c.low, c.high, c.in_band() ? "in" : "OUT", c.note);
}

void print_cases(const std::string& dir) {
  const auto work = std::filesystem::temp_directory_path() / "gpuprof_predict_validation";
  std::filesystem::create_directories(work);
  fmt::print("\n{:<62} {:>12} {:>12} {:>8} {}\n", "case", "predicted", "measured", "error", "band");
  const auto gru = gpuprof::predict::run_gru_case(dir, work.string());
  for (const auto& row : gru.rows) print_case(row);
  fmt::print("GRU: fitted gradient bytes {}; break-even batch predicted {:.0f}, measured {:.0f}\n",
             gru.fitted_gradient_bytes, gru.predicted_break_even, gru.measured_break_even);
  print_case(gpuprof::predict::run_towers_case(dir, work.string()));
  const auto published = gpuprof::predict::run_published_cases(dir, work.string());
  int within = 0, in_band = 0;
  for (const auto& row : published) {
    print_case(row);
    within += std::abs(row.error()) <= 0.10, in_band += row.in_band();
  }
  fmt::print("published: {} of {} within 10 %, {} in the band\n", within, published.size(), in_band);
  std::filesystem::remove_all(work);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : GPUPROF_DEFAULT_SCALING_DIR;
  try {
    print_collectives(dir);
    print_cases(dir);
  } catch (const std::exception& error) {
    fmt::print(stderr, "gpuprof_predict_validation: {}\n", error.what());
    return 1;
  }
  return 0;
}
