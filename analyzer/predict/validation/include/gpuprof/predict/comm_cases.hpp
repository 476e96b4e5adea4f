#pragma once

// The leave-communication-out check (comm_validation.hpp) on every multi-rank trace of
// ../shared/data/external: validation only, linked by tests and the benchmark.

#include <string>
#include <vector>

#include "gpuprof/predict/comm_validation.hpp"

namespace gpuprof::predict {

// Every multi-rank trace of ../shared/data/external (DLRM 8 ranks, HTA training rank 0 of 16, HTA NCCL rank 0
// of 2), each rank its own case, with the link of its hardware (`scaling_dir`: the measured two-node A100
// all-reduce for the 16-rank job). `work_dir` holds the imported copies.
std::vector<CommCase> run_comm_cases(const std::string& external_dir, const std::string& scaling_dir,
                                     const std::string& work_dir);

}  // namespace gpuprof::predict
