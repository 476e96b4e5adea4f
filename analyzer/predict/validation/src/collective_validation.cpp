#include "gpuprof/predict/collective_validation.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/units/statistics.hpp"

namespace gpuprof::predict {
namespace {

constexpr std::int64_t kMiB = 1 << 20;

std::vector<AllReduceTable> echo_tables(const std::string& dir, const std::vector<int>& gpus) {
  std::vector<AllReduceTable> tables;
  for (const int n : gpus)
    tables.push_back(read_allreduce_file(fmt::format("{}/nccl-tests/echo-a100/nccl_{}.log", dir, n)));
  return tables;
}

std::vector<AllReduceTable> vtrain_tables(const std::string& dir, const std::string& gpu) {
  std::vector<AllReduceTable> tables;
  for (int n = 2; n <= 8; ++n)
    tables.push_back(read_allreduce_file(fmt::format("{}/allreduce-lut/vtrain/{}/AR_GPU{}_1M_1024M_LUT", dir, gpu, n)));
  return tables;
}

// Only sizes inside the training tables' range are held against the truth: below it the curve extrapolates.
CollectiveCheck check(std::string name, std::string trained, std::string tested,
                      const std::vector<AllReduceTable>& training, const std::vector<AllReduceTable>& truth) {
  const AllReduceCurve curve(training);
  std::int64_t smallest = training.front().points.front().bytes;
  for (const auto& table : training) smallest = std::min(smallest, table.points.front().bytes);
  CollectiveCheck result{std::move(name), std::move(trained), std::move(tested)};
  std::vector<double> large, small;
  for (const auto& table : truth)
    for (const auto& point : table.points) {
      if (point.bytes < smallest) continue;
      const double error = std::abs(curve.time_ns(point.bytes, table.gpus) / point.time_ns - 1.0);
      (point.bytes >= kMiB ? large : small).push_back(error);
    }
  result.large_points = static_cast<std::int64_t>(large.size());
  result.small_points = static_cast<std::int64_t>(small.size());
  result.large_median_error = units::median(large), result.small_median_error = units::median(small);
  result.large_worst_error = large.empty() ? 0.0 : *std::max_element(large.begin(), large.end());
  result.small_worst_error = small.empty() ? 0.0 : *std::max_element(small.begin(), small.end());
  return result;
}

}  // namespace

std::vector<CollectiveCheck> run_collective_checks(const std::string& dir) {
  const auto echo = echo_tables(dir, {2, 4, 8});
  const auto vtrain = vtrain_tables(dir, "a100");
  std::vector<CollectiveCheck> checks;
  checks.push_back(check("Echo A100 logs -> vTrain A100 LUT", "Echo nccl_{2,4,8}.log",
                         "vTrain AR_GPU{2..8} (3,5-7 "
                         "interpolated in N)",
                         echo, vtrain));
  checks.push_back(
      check("vTrain A100 LUT -> Echo A100 logs", "vTrain AR_GPU{2..8}", "Echo nccl_{2,4,8}.log", vtrain, echo));
  // No second public source measures A100 below 1 MiB, so the small sizes are checked on a GPU count held out
  // of the fit: 4 GPUs from the 2- and 8-GPU logs.
  checks.push_back(check("Echo 2+8 GPUs -> Echo 4 GPUs (held-out count)", "Echo nccl_{2,8}.log", "Echo nccl_4.log",
                         echo_tables(dir, {2, 8}), echo_tables(dir, {4})));
  return checks;
}

}  // namespace gpuprof::predict
