#pragma once

// Measured all-reduce times (bytes, microseconds) behind the link presets,
// transcribed from ../shared/data/scaling (see link_preset_tables.cpp for each source).

#include <cstdint>
#include <utility>
#include <vector>

namespace gpuprof::predict {

struct RawTable {
  std::int32_t gpus;
  std::vector<std::pair<std::int64_t, double>> points;  // bytes, time in us
};

// Echo's all_reduce_perf logs on Azure ND A100 v4 (A100-SXM4-40GB, NVLink 3): 2, 4 and 8 GPUs.
extern const std::vector<RawTable> kEchoA100;
// vTrain's V100 look-up tables, 2 to 8 GPUs, at powers of two from 1 MiB.
extern const std::vector<RawTable> kVtrainV100;
// 2x RTX 2080 Ti on PCIe 3.0 x16 behind one switch, no P2P.
extern const std::vector<RawTable> kRtx2080TiPcie3;

}  // namespace gpuprof::predict
