#pragma once

// The measured figures behind the `pcie4` link preset: consumer PCIe 4.0 GPUs (RTX 3090/4090 class) with peer
// access off or unavailable, each with the public page it was read from. Kept as data so that the preset is
// derived from them by a rule stated once (`pcie4_preset_figures`) and a test can check the preset against them.

#include <cstdint>
#include <utility>
#include <vector>

namespace gpuprof::predict {

struct MeasuredFigure {
  const char* source;    // the page's address
  const char* posted;    // the date of the post or comment the figure is in
  const char* hardware;  // as the page states it
  std::int32_t gpus;     // GPUs in the measurement (all-reduce) or 0 for a copy between two endpoints
  std::int64_t bytes;    // message size of an all-reduce figure; 0 where the page gives the plateau only
  // As printed, every pair or GPU the page lists: all-reduce time in us if `bytes` > 0, else busbw in GB/s;
  // copies in GB/s one way. The source's figure is their median.
  std::vector<double> values;
};

// NCCL all-reduce on such boxes (default transport through host memory).
const std::vector<MeasuredFigure>& pcie4_allreduce_figures();
// Pinned host-to-device copies (one figure per GPU or per page, as printed).
const std::vector<MeasuredFigure>& pcie4_host_copy_figures();
// GPU-to-GPU copies with P2P disabled, staged through host memory (p2pBandwidthLatencyTest, one way).
const std::vector<MeasuredFigure>& pcie4_staged_copy_figures();

// The preset's figures, by the rule in docs/predict.md ("Link presets"). Copies: the median over sources of each
// source's own median. All-reduce: every source is one measurement of the box's bus bandwidth whatever its GPU
// count (a ring through host memory has a bus bandwidth roughly independent of N, so sources at different counts
// are the spread between boxes and NCCL settings, not a curve); the centre is the median over sources. The band:
// the all-reduce sources' extremes over that centre, widened where the staged-copy sources spread further.
struct Pcie4Figures {
  double busbw_gbps;                          // the all-reduce centre, every GPU count
  std::vector<std::int32_t> allreduce_gpus;   // the GPU counts measured, ascending, unique
  double host_gbps, staged_gbps, faster, slower;
};
Pcie4Figures pcie4_preset_figures();
// The median of a source's values, and the bus bandwidth an all-reduce figure states (a time converted with
// nccl-tests' 2(n-1)/n).
double source_median(const MeasuredFigure& figure);
double measured_busbw_gbps(const MeasuredFigure& figure);

}  // namespace gpuprof::predict
