// Prints every validation case of `gpuprof predict` (docs/predict.md) with what
// was predicted, what was measured and the error. Figures, not timings: the
// tests in tests/predict assert the bounds on the same files.
//   gpuprof_predict_validation [SCALING_DIR]

#include <fmt/format.h>

#include <cstdio>

#include "gpuprof/predict/collective_validation.hpp"

namespace {

void print_collectives(const std::string& dir) {
  fmt::print("All-reduce model, held-out sources (median |predicted/measured - 1|; bounds 10 % >= 1 MiB, 25 % below)\n");
  fmt::print("{:<48} {:>6} {:>9} {:>9} {:>6} {:>9} {:>9}\n", "train -> test", ">=1MiB", "median", "worst", "<1MiB",
             "median", "worst");
  for (const auto& check : gpuprof::predict::run_collective_checks(dir))
    fmt::print("{:<48} {:>6} {:>8.1f}% {:>8.1f}% {:>6} {:>8.1f}% {:>8.1f}%\n", check.name, check.large_points,
               100 * check.large_median_error, 100 * check.large_worst_error, check.small_points,
               100 * check.small_median_error, 100 * check.small_worst_error);
}

}  // namespace

int main(int argc, char** argv) {
  const std::string dir = argc > 1 ? argv[1] : GPUPROF_DEFAULT_SCALING_DIR;
  try {
    print_collectives(dir);
  } catch (const std::exception& error) {
    fmt::print(stderr, "gpuprof_predict_validation: {}\n", error.what());
    return 1;
  }
  return 0;
}
