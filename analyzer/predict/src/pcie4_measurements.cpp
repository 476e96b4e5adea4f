#include "gpuprof/predict/pcie4_measurements.hpp"

#include <algorithm>
#include <set>

#include "gpuprof/predict/allreduce_curve.hpp"
#include "gpuprof/units/statistics.hpp"

// Figures only, read on 2026-11-28 through the search tool's stored copies of the threads; nothing of their text
// is copied. Every source found for the class is listed, whether or not it is near the others: the spread between
// them is the band.

namespace gpuprof::predict {
namespace {

double median_over_sources(const std::vector<MeasuredFigure>& figures) {
  std::vector<double> per_source;
  for (const auto& figure : figures) per_source.push_back(source_median(figure));
  return units::median(per_source);
}

}  // namespace

const std::vector<MeasuredFigure>& pcie4_allreduce_figures() {
  static const std::vector<MeasuredFigure> figures = {
      // A 20 MiB bf16 all-reduce ([2048, 5120]) on two GPUs whose topology is SYS, NCCL's SHM transport, the same
      // under the LL, LL128 and Simple protocols (the PR's problem statement).
      {"https://github.com/sgl-project/sglang/pull/39605", "2026-09-15",
       "2x GeForce RTX 5070 Ti, PCIe 4.0 x16, no P2P (SYS)", 2, 20'971'520, {10'900.0}},
      // A user's all_reduce_perf busbw through host memory (SHM), against 22 GB/s once P2P was enabled.
      {"https://github.com/NVIDIA/nccl/issues/1603", "not in the stored copy", "4x GeForce RTX 4090, no P2P (SHM)",
       4, 0, {18.0}},
  };
  return figures;
}

const std::vector<MeasuredFigure>& pcie4_host_copy_figures() {
  static const std::vector<MeasuredFigure> figures = {
      // nvbandwidth host_to_device_memcpy_ce, one figure per GPU.
      {"https://github.com/NVIDIA/nvbandwidth/issues/15", "2024-01-06", "8x GeForce RTX 4090", 0, 0,
       {25.50, 24.26, 23.90, 26.30, 26.28, 26.38, 26.09, 26.31}},
      // "26 GB/s per direction measured" on the same boxes as the 2-GPU all-reduce above.
      {"https://github.com/sgl-project/sglang/pull/39605", "2026-09-15", "2x GeForce RTX 5070 Ti, PCIe 4.0 x16", 0, 0,
       {26.0}},
  };
  return figures;
}

const std::vector<MeasuredFigure>& pcie4_staged_copy_figures() {
  static const std::vector<MeasuredFigure> figures = {
      // p2pBandwidthLatencyTest "Unidirectional P2P=Disabled" (without --sm_copy), every ordered pair of six GPUs
      // on PHB/SYS paths, PCIe 16 GT/s x16.
      {"https://github.com/NVIDIA/nccl/issues/814", "2023-03-31", "6x GeForce RTX 4090, PCIe 4.0 x16", 0, 0,
       {20.10, 22.16, 22.14, 22.33, 22.37, 20.39, 22.26, 22.24, 22.34, 22.22, 22.18, 22.37, 22.09, 22.40, 22.24,
        22.24, 22.42, 22.25, 20.46, 22.24, 22.19, 22.39, 22.25, 20.43, 22.23, 22.09, 22.30, 22.22, 22.32, 22.38}},
      // p2pBandwidthLatencyTest "Unidirectional P2P=Disabled" on a consumer board (Panchovix's comment).
      {"https://github.com/tinygrad/open-gpu-kernel-modules/issues/44", "not in the stored copy",
       "2x GeForce RTX 4090", 0, 0, {6.34, 6.34}},
  };
  return figures;
}

double source_median(const MeasuredFigure& figure) { return units::median(figure.values); }

double measured_busbw_gbps(const MeasuredFigure& figure) {
  const double value = source_median(figure);
  if (figure.bytes <= 0) return value;
  return static_cast<double>(figure.bytes) * all_reduce_factor(figure.gpus) / (value * 1'000.0);
}

Pcie4Figures pcie4_preset_figures() {
  Pcie4Figures out{};
  std::vector<double> busbw;
  std::set<std::int32_t> gpus;
  for (const auto& figure : pcie4_allreduce_figures()) {
    busbw.push_back(measured_busbw_gbps(figure));
    gpus.insert(figure.gpus);
  }
  out.busbw_gbps = units::median(busbw);
  out.allreduce_gpus.assign(gpus.begin(), gpus.end());
  out.host_gbps = median_over_sources(pcie4_host_copy_figures());
  out.staged_gbps = median_over_sources(pcie4_staged_copy_figures());
  const auto [slowest_busbw, fastest_busbw] = std::minmax_element(busbw.begin(), busbw.end());
  out.faster = *fastest_busbw / out.busbw_gbps, out.slower = *slowest_busbw / out.busbw_gbps;
  for (const auto& figure : pcie4_staged_copy_figures()) {
    out.faster = std::max(out.faster, source_median(figure) / out.staged_gbps);
    out.slower = std::min(out.slower, source_median(figure) / out.staged_gbps);
  }
  return out;
}

}  // namespace gpuprof::predict
