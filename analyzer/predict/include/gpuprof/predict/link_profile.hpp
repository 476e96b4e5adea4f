#pragma once

// What a prediction needs to know about the GPUs' links: the all-reduce curve,
// host and peer copy bandwidths, and how far the figures may be off (the band).
// Built-in presets carry the measured tables they come from and say so; a user's
// own nccl-tests output (`--link-file`) replaces a preset's all-reduce curve.

#include <optional>
#include <string>
#include <vector>

#include "gpuprof/predict/allreduce_curve.hpp"

namespace gpuprof::predict {

struct LinkProfile {
  std::string name;         // the preset's name or "file"
  std::string description;  // the hardware the figures were measured on
  std::string source;       // where the figures come from (repository, file, line, issue)
  std::vector<AllReduceTable> tables;
  std::optional<double> hop_latency_ns;  // per ring hop, for GPU counts beyond the tables
  // Host <-> one GPU copies (host-staged strategies) and GPU <-> GPU copies (placement).
  double host_gbps = 12.0, host_latency_ns = 10'000.0;
  double peer_gbps = 5.0, peer_latency_ns = 15'000.0;
  bool peer_access = false;  // false: peer copies are staged through host memory
  // GPU <-> GPU copies across switches, the host bridge or sockets where measured apart (0: as peer_gbps).
  double far_peer_gbps = 0.0;
  // The GPUs reach each other and the host over PCIe only (no NVLink or xGMI): one host feeds every replica
  // over thin links, and the band's replica loss is the one calibrated on such machines (band_high.hpp).
  bool over_pcie = false;
  // Bandwidth multipliers for the band's ends: the other sources for the same link
  // measured this much faster (low end of the time) or slower (high end).
  double faster = 1.1, slower = 0.8;

  AllReduceCurve curve() const { return AllReduceCurve(tables, hop_latency_ns); }
};

// Names of the presets, in the order `--help` lists them.
std::vector<std::string> link_preset_names();
// Throws TraceError::bad_input naming the known presets for an unknown name.
LinkProfile link_preset(const std::string& name);
// `preset` with its all-reduce tables replaced by the user's files (nccl-tests
// output or look-up tables, one per GPU count); errors name the file.
LinkProfile with_link_files(LinkProfile preset, const std::vector<std::string>& files);

}  // namespace gpuprof::predict
