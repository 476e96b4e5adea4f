#pragma once

// How the GPUs of one machine reach each other, as `nvidia-smi topo -m` prints it: per pair, the
// widest hop on the path (a PCIe switch, several switches, the host bridge, the link between sockets,
// or NVLink). A prediction uses it to find the slowest hop a synchronisation crosses (sync_model.hpp).

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gpuprof::predict {

// Ordered from the nearest to the farthest path between two GPUs.
enum class PathKind { self, nvlink, pix, pxb, phb, node, sys };

struct GpuTopology {
  std::string source;                       // the file it was read from
  std::vector<std::vector<PathKind>> path;  // path[a][b], symmetric, self on the diagonal

  std::int32_t gpus() const { return static_cast<std::int32_t>(path.size()); }
  // The farthest path between any two of GPUs 0 to `count` - 1 (the GPUs a job on `count` GPUs gets).
  PathKind farthest(std::int32_t count) const;
  // The machine as a job that sees only `gpus` (CUDA_VISIBLE_DEVICES) finds it: those GPUs, renumbered from 0.
  // Throws TraceError::bad_input naming the source for a GPU it does not have or one given twice.
  GpuTopology visible(const std::vector<std::int32_t>& gpus) const;
};

inline constexpr std::int32_t kMaxTopologyGpus = 1024;

// `nvidia-smi topo -m` output: a header of GPU0 to GPUn-1 (further columns such as "CPU Affinity",
// "NIC0" ignored), then one row per GPU, `X` on the diagonal; the legend after it is ignored. Tokens:
// X, PIX, PXB, PHB, NODE, SYS, SOC (old drivers' SYS), NV<n>. Throws TraceError::bad_input naming `name`
// and the line for anything else: a missing or repeated row, an unknown token, an asymmetric pair.
GpuTopology parse_topology(std::string_view text, const std::string& name);
// The same, read from a regular text file of at most 1 MiB.
GpuTopology read_topology_file(const std::string& path);

std::string_view to_string(PathKind kind);
// NVLink and PIX pairs meet within one switch; PXB, PHB, NODE and SYS cross at least one more hop.
bool beyond_one_switch(PathKind kind);

}  // namespace gpuprof::predict
