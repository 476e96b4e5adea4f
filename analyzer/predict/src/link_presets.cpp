#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <functional>

#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/predict/pcie4_measurements.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "link_preset_tables.hpp"

namespace gpuprof::predict {
namespace {

constexpr double kNsPerUs = 1'000.0;

// `bandwidth_scale` > 1 makes the transfer part of every time shorter: presets for links
// without a public all-reduce log borrow the shape of a measured curve and rescale it by
// the ratio of the two links' stated bandwidths, and say so in their source.
std::vector<AllReduceTable> tables_of(const std::vector<RawTable>& raw, const std::string& source,
                                      double bandwidth_scale = 1.0) {
  std::vector<AllReduceTable> tables;
  for (const auto& table : raw) {
    AllReduceTable converted{table.gpus, {}, source};
    const double alpha_ns = table.points.front().second * kNsPerUs;
    for (const auto& [bytes, time_us] : table.points) {
      const double time_ns = time_us * kNsPerUs;
      converted.points.push_back({bytes, alpha_ns + (time_ns - alpha_ns) / bandwidth_scale});
    }
    tables.push_back(std::move(converted));
  }
  return tables;
}

const char* const kEchoSource = "NetX-lab/Echo:nccl-test-log/nccl_{2,4,8}.log@15f0d12c (all_reduce_perf, measured)";
const char* const kVtrainSource = "VIA-Research/vTrain:trace/v100/AR_GPU{2..8}_1M_1024M_LUT@f8dda847 (measured)";
const char* const kPcie3Source =
    "Anthony-Hoo/Anthony-Hoo.github.io:posts/AutoDL_Multi-GPU_Interconnection_Test.md@74cc3588#L288-315 "
    "(all_reduce_perf -g2, measured)";
// NVIDIA/nccl:src/graph/tuning.cc@01afd20a, ring Simple protocol hwLat.
constexpr double kNvlinkHopNs = 3'400.0, kPciHopNs = 5'700.0;

LinkProfile nvlink3() {
  LinkProfile link{"nvlink3", "A100-SXM4-40GB, NVLink 3, one node (Azure ND A100 v4)", kEchoSource,
                   tables_of(kEchoA100, kEchoSource)};
  link.hop_latency_ns = kNvlinkHopNs;
  // Host: NCCL's PCI Gen4 model (nccl-tests#307); peer: the measured 2-GPU all-reduce busbw at 1 GiB.
  link.host_gbps = 24.0, link.host_latency_ns = 8'000.0;
  link.peer_gbps = 207.0, link.peer_latency_ns = 8'500.0, link.peer_access = true;
  // vTrain's A100 tables run up to 25 % faster at 1-4 MiB and 5 % slower at 1 GiB than Echo's logs.
  link.faster = 1.25, link.slower = 0.95;
  return link;
}

LinkProfile nvlink2() {
  LinkProfile link{"nvlink2", "V100-SXM2, NVLink 2, one node (system not stated by vTrain)", kVtrainSource,
                   tables_of(kVtrainV100, kVtrainSource)};
  link.hop_latency_ns = kNvlinkHopNs;
  link.host_gbps = 12.0, link.host_latency_ns = 10'000.0;  // NCCL's PCI_BW 12.0 (Gen3 x16), topo.h@069a3d4f
  link.peer_gbps = 22.55, link.peer_latency_ns = 10'000.0, link.peer_access = true;  // 2-GPU busbw, 1 GiB
  link.faster = 1.15, link.slower = 0.85;
  return link;
}

LinkProfile pcie(const char* name, double scale, const char* scale_note) {
  const std::string source = fmt::format("{}{}", kPcie3Source, scale_note);
  LinkProfile link{name, fmt::format("PCIe, no P2P (measured on 2x RTX 2080 Ti, PCIe 3.0 x16){}", scale_note), source,
                   tables_of(kRtx2080TiPcie3, source, scale)};
  link.hop_latency_ns = kPciHopNs;
  // Same post: bandwidthTest pinned H2D 12.2 GB/s; p2pBandwidthLatencyTest staged 5.71 GB/s, 14.76 us.
  link.host_gbps = 12.2 * scale, link.host_latency_ns = 10'000.0;
  link.peer_gbps = 5.71 * scale, link.peer_latency_ns = 14'760.0, link.peer_access = false;
  link.over_pcie = true;
  link.faster = scale > 1.0 ? 1.3 : 1.1, link.slower = scale > 1.0 ? 0.6 : 0.8;
  return link;
}

// Consumer PCIe 4.0 without peer access, from the measurements in pcie4_measurements.cpp by the rule there.
// No public full all_reduce_perf sweep of such a box was found (the stored threads cut their tables off), so the
// curve's shape (its small-message floor and rise to the plateau) is the pcie3 pair's measured sweep, the only
// complete sweep without P2P here, at the one measured bus bandwidth; each measured GPU count gets a table, its
// latency the ring's extra PCI hops (as the curve adds beyond its tables).
LinkProfile pcie4() {
  const auto figures = pcie4_preset_figures();
  const auto& sweep = kRtx2080TiPcie3.front();  // 2 GPUs
  const double alpha_us = sweep.points.front().second;
  const auto& [top_bytes, top_us] = sweep.points.back();
  const double sweep_busbw = static_cast<double>(top_bytes) * all_reduce_factor(2) / ((top_us - alpha_us) * kNsPerUs);
  const std::string source = fmt::format(
      "all-reduce busbw {:.2f} GB/s on any GPU count, the median of the measured sources (sglang#39605 2x RTX 5070 "
      "Ti, nccl#1603 4x RTX 4090), band {:.2f}x / {:.2f}x their ends; curve shape {}; copies nvbandwidth#15, "
      "sglang#39605 (host), nccl#814, tinygrad/open-gpu-kernel-modules#44 (staged)",
      figures.busbw_gbps, figures.faster, figures.slower, kPcie3Source);
  std::vector<AllReduceTable> tables;
  for (const auto gpus : figures.allreduce_gpus) {
    AllReduceTable table{gpus, {}, source};
    const double alpha_ns = alpha_us * kNsPerUs + 2.0 * (gpus - 2) * kPciHopNs;
    const double stretch = all_reduce_factor(gpus) / all_reduce_factor(2) * sweep_busbw / figures.busbw_gbps;
    for (const auto& [bytes, time_us] : sweep.points)
      table.points.push_back({bytes, alpha_ns + (time_us - alpha_us) * kNsPerUs * stretch});
    tables.push_back(std::move(table));
  }
  LinkProfile link{"pcie4", "consumer PCIe 4.0, no P2P (RTX 3090/4090 class; measured figures, pcie3 curve shape)",
                   source, std::move(tables)};
  link.hop_latency_ns = kPciHopNs;
  link.host_gbps = figures.host_gbps, link.host_latency_ns = 10'000.0;  // no measured latency: as the others
  // Staged copies' latency: the pcie3 pair's measured 14.76 us (no PCIe 4 latency matrix was in the stored copies).
  link.peer_gbps = figures.staged_gbps, link.peer_latency_ns = 14'760.0, link.peer_access = false;
  link.over_pcie = true;
  link.faster = figures.faster, link.slower = figures.slower;
  return link;
}

LinkProfile nvlink4() {
  // The maintainer's effective NVLink 4 bandwidth without NVLS (nccl-tests#212) over Echo's measured NVLink 3 busbw.
  constexpr double kScale = 370.0 / 230.86;
  const std::string source = fmt::format("{}, scaled by 370/230.86 (nccl-tests#212, stated)", kEchoSource);
  LinkProfile link{"nvlink4", "H100/H200 SXM, NVLink 4 + NVSwitch (A100 curve rescaled)", source,
                   tables_of(kEchoA100, source, kScale)};
  link.hop_latency_ns = kNvlinkHopNs;
  link.host_gbps = 48.0, link.host_latency_ns = 8'000.0;
  link.peer_gbps = 380.0, link.peer_latency_ns = 8'000.0, link.peer_access = true;  // nccl#1264, measured
  link.faster = 480.0 / 370.0, link.slower = 215.0 / 370.0;  // NVLS (stated) and an H800 node (nccl#1374)
  return link;
}

LinkProfile h800() {
  // H800 SXM: NVLink cut to 400 GB/s both ways; an 8-GPU node's all-reduce measured at busbw 215 GB/s (nccl#1374,
  // a user's report). The curve is Echo's A100 shape at that plateau; no second source, so the default spread.
  constexpr double kScale = 215.0 / 230.86;
  const std::string source =
      fmt::format("{}, scaled by 215/230.86 (NVIDIA/nccl#1374: 8x H800 all-reduce busbw 215 GB/s, measured)",
                  kEchoSource);
  LinkProfile link{"h800", "H800 SXM, reduced NVLink + NVSwitch (A100 curve rescaled)", source,
                   tables_of(kEchoA100, source, kScale)};
  link.hop_latency_ns = kNvlinkHopNs;
  link.host_gbps = 48.0, link.host_latency_ns = 8'000.0;
  link.peer_gbps = 215.0, link.peer_latency_ns = 8'000.0, link.peer_access = true;
  link.faster = 1.1, link.slower = 0.8;
  return link;
}

// Echo's measured all-reduce busbw at 1 GiB per GPU count (link-presets.csv; nccl_{2,4,8}.log).
double echo_plateau_gbps(std::int32_t gpus) { return gpus <= 2 ? 207.16 : gpus <= 4 ? 224.64 : 230.86; }

// Echo's curves, each GPU count's rescaled to the busbw `target_gbps(gpus)` another source gives.
std::vector<AllReduceTable> echo_rescaled(const std::string& source,
                                          const std::function<double(std::int32_t)>& target_gbps) {
  std::vector<AllReduceTable> tables;
  for (const auto& table : kEchoA100)
    tables.push_back(tables_of({table}, source, target_gbps(table.gpus) / echo_plateau_gbps(table.gpus)).front());
  return tables;
}

LinkProfile nvlink5() {
  // B200 SXM, NVLink 5 + NVSwitch: a user's 8x B200 node measured above 830 GB/s all-reduce busbw
  // (NVIDIA/nccl#1807); GB200's GPU-to-GPU copies 770 GB/s by nvbandwidth (Azure/AI-benchmarking-guide#7, a
  // user's comment). One measured figure per kind, so the default spread.
  const std::string source = fmt::format("{}, rescaled to 830 GB/s busbw (NVIDIA/nccl#1807: 8x B200, measured)",
                                         kEchoSource);
  LinkProfile link{"nvlink5", "B200 SXM, NVLink 5 + NVSwitch (A100 curve rescaled)", source,
                   echo_rescaled(source, [](std::int32_t) { return 830.0; })};
  link.hop_latency_ns = kNvlinkHopNs;
  link.host_gbps = 48.0, link.host_latency_ns = 8'000.0;  // PCIe 5.0 x16, as nvlink4
  link.peer_gbps = 770.0, link.peer_latency_ns = 8'000.0, link.peer_access = true;
  link.faster = 1.1, link.slower = 0.8;
  return link;
}

LinkProfile xgmi() {
  // MI300X: 8 GPUs fully connected, one xGMI link per pair (ROCm/rccl#1270); 48 GB/s per direction per link
  // after protocol overheads (ROCm/rccl#1210, maintainer). A ring of N GPUs drives N-1 links per GPU at best:
  // busbw 48 (N-1) GB/s, a model, not a measured all-reduce, hence the wide spread of the rescaled presets.
  const std::string source = fmt::format(
      "{}, rescaled to 48 (N-1) GB/s busbw (ROCm/rccl#1210: 48 GB/s per xGMI link, stated; #1270: fully "
      "connected, fewer than 8 GPUs use a fraction of the links)",
      kEchoSource);
  LinkProfile link{"xgmi", "MI300X, xGMI fully connected (A100 curve rescaled to a link model)", source,
                   echo_rescaled(source, [](std::int32_t gpus) { return 48.0 * (gpus - 1); })};
  link.hop_latency_ns = kNvlinkHopNs;
  link.host_gbps = 48.0, link.host_latency_ns = 8'000.0;  // PCIe 5.0 x16, as nvlink4
  link.peer_gbps = 48.0, link.peer_latency_ns = 8'000.0, link.peer_access = true;  // one link per pair
  link.faster = 1.3, link.slower = 0.6;
  return link;
}

// The pcie3 curve's transfer part rescaled to a machine's measured GPU-to-GPU copies (the curve was measured
// over copies of 5.71 GB/s, staged through the host without peer access).
constexpr double kPcie3StagedGbps = 5.71;

constexpr const char* kRossumCudaSamples =
    "rossumai/keras-multi-gpu:experiments/gpu_bandwidth/cuda_samples/results (copy: "
    "../shared/data/scaling/rossum-keras-multi-gpu)";

// One machine's measured copies: to and from the host, between two GPUs (staged through host memory without
// peer access), one latency for both, and the band's spread from its other measurements.
struct MachineCopies {
  double host_gbps, peer_gbps, latency_ns;
  bool peer_access;
  double faster, slower;
};

LinkProfile pcie_machine(const char* name, const std::string& description, const std::string& measured,
                         const MachineCopies& copies) {
  const double scale = copies.peer_gbps / kPcie3StagedGbps;
  const std::string source = fmt::format("{}: {}; all-reduce: {} rescaled x{:.3f} to those copies", kRossumCudaSamples,
                                         measured, kPcie3Source, scale);
  LinkProfile link{name, description, source, tables_of(kRtx2080TiPcie3, source, scale)};
  link.hop_latency_ns = kPciHopNs;
  link.host_gbps = copies.host_gbps, link.host_latency_ns = copies.latency_ns;
  link.peer_gbps = copies.peer_gbps, link.peer_latency_ns = copies.latency_ns, link.peer_access = copies.peer_access;
  link.over_pcie = true;
  link.faster = copies.faster, link.slower = copies.slower;
  return link;
}

// 7gforce: GTX 1070s on x1 risers behind two PCIe switches. bandwidthTest pinned 762.8-767.8 MB/s host to
// device, 798.9-805.3 back; p2pBandwidthLatencyTest with P2P disabled (staged through the host) 0.76-0.77 GB/s
// one way, 15.2-15.7 us. Faster source: 0.82 GB/s with P2P on within a switch; slower: parallel_forall's
// bandwidthtest, 16 MB copies on GPUs 2 and 3, 0.39-0.44 GB/s.
LinkProfile pcie3_x1() {
  return pcie_machine("pcie3-x1", "consumer PCIe box on x1 risers, no peer access (Rossum 7gforce, GTX 1070)",
                      "7gforce bandwidthTest 0.78 GB/s host, p2pBandwidthLatencyTest P2P=Disabled 0.76 GB/s, 15.5 us "
                      "(measured)",
                      {0.78, 0.76, 15'500.0, false, 0.82 / 0.76, 0.41 / 0.78});
}

// Azure NV12 / NV24 (Tesla M60, PCIe 3.0 x8 per GPU, SOC between every pair): bandwidthTest 6,066-6,071.7 MB/s
// host to device, 6,531.7-6,536.2 back; no peer access, copies between GPUs 5.26-5.30 GB/s one way for the 2x
// machine and two pairs of the 4x, 5.86-5.88 for the other pairs; 20-23 us.
LinkProfile pcie3_m60() {
  return pcie_machine("pcie3-m60", "PCIe server without peer access (Azure NV12/NV24, Tesla M60)",
                      "az-2x-m60 and az-4x-m60 bandwidthTest 6.07 GB/s host, p2pBandwidthLatencyTest 5.26 GB/s, "
                      "21.5 us (measured)",
                      {6.07, 5.26, 21'500.0, false, 5.88 / 5.26, 0.8});
}

// 7gforce-v2's GTX 1080 Ti pairs with peer access (1-2, 5-6): 8.96-11.55 GB/s one way with P2P, bandwidthTest
// 11,719.1-11,819.3 MB/s host to device. A workstation, not a server: the nearest measured PCIe box with peer
// access in the data; the centre is the range's middle, the band its ends; P2P latency 5.97-8.74 us for those
// pairs: 7 us.
LinkProfile pcie3_p2p() {
  return pcie_machine("pcie3-p2p", "PCIe 3.0 box with peer access (Rossum 7gforce-v2, GTX 1080 Ti pairs)",
                      "7gforce-v2 bandwidthTest 11.77 GB/s host, p2pBandwidthLatencyTest P2P=Enabled 8.96-11.55 GB/s "
                      "(measured)",
                      {11.77, 10.26, 7'000.0, true, 11.55 / 10.26, 8.96 / 10.26});
}

struct Preset {
  const char* name;
  std::function<LinkProfile()> make;
};

const std::vector<Preset>& presets() {
  static const std::vector<Preset> all = {
      {"pcie3", [] { return pcie("pcie3", 1.0, ""); }},
      {"pcie4", pcie4},
      {"pcie5", [] { return pcie("pcie5", 4.0, ", rescaled x4 by PCIe 5.0/3.0 peak (64/16 GB/s)"); }},
      {"pcie3-x1", pcie3_x1},
      {"pcie3-m60", pcie3_m60},
      {"pcie3-p2p", pcie3_p2p},
      {"nvlink2", nvlink2},
      {"nvlink3", nvlink3},
      {"nvlink4", nvlink4},
      {"h800", h800},
      {"nvlink5", nvlink5},
      {"xgmi", xgmi},
  };
  return all;
}

}  // namespace

std::vector<std::string> link_preset_names() {
  std::vector<std::string> names;
  for (const auto& preset : presets()) names.emplace_back(preset.name);
  return names;
}

LinkProfile link_preset(const std::string& name) {
  for (const auto& preset : presets())
    if (name == preset.name) return preset.make();
  throw TraceError::bad_input("", fmt::format("unknown link '{}' (presets: {}; or --link-file with nccl-tests output)",
                                              name, fmt::join(link_preset_names(), ", ")));
}

LinkProfile with_link_files(LinkProfile preset, const std::vector<std::string>& files) {
  if (files.empty()) return preset;
  preset.tables.clear();
  for (const auto& file : files) preset.tables.push_back(read_allreduce_file(file));
  preset.source = fmt::format("{} (the user's measurements)", fmt::join(files, ", "));
  preset.description = "as measured in " + fmt::format("{}", fmt::join(files, ", "));
  // The user's own measurements of their link: the band keeps only run-to-run noise.
  preset.faster = 1.05, preset.slower = 0.95;
  return preset;
}

}  // namespace gpuprof::predict
