#pragma once

// Held-out checks of the all-reduce model on the public measurements in
// ../shared/data/scaling: a curve built from one source predicts the times of
// another. Shared by the tests (which assert the bounds) and the benchmark
// (which prints the table).

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprof::predict {

struct CollectiveCheck {
  std::string name;                                       // "train Echo A100 -> test vTrain A100"
  std::string trained;                                    // what the curve was built from
  std::string tested;                                     // what it predicted
  std::int64_t large_points = 0, small_points = 0;        // >= 1 MiB, < 1 MiB
  double large_median_error = 0, small_median_error = 0;  // |predicted/measured - 1|
  double large_worst_error = 0, small_worst_error = 0;
};

// `scaling_dir`: the folder holding nccl-tests/ and allreduce-lut/. Throws TraceError for missing files.
std::vector<CollectiveCheck> run_collective_checks(const std::string& scaling_dir);

}  // namespace gpuprof::predict
