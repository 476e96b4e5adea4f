#include "peer_access.hpp"

#include <cuda_runtime_api.h>
#include <fmt/format.h>

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

void enable_one_way(int device, int peer) {
  GPUPROF_CHECK(cudaSetDevice(device));
  const cudaError_t status = cudaDeviceEnablePeerAccess(peer, 0);
  if (status == cudaErrorPeerAccessAlreadyEnabled) {
    cudaGetLastError();  // clear it: another model on these GPUs enabled it first
    return;
  }
  check_status(status, "cudaDeviceEnablePeerAccess");
}

}  // namespace

std::vector<std::string> enable_peer_access(const std::vector<std::pair<int, int>>& pairs) {
  std::vector<std::string> notes;
  for (const auto& [from, to] : pairs) {
    if (from == to) continue;
    int forward = 0;
    int backward = 0;
    GPUPROF_CHECK(cudaDeviceCanAccessPeer(&forward, from, to));
    GPUPROF_CHECK(cudaDeviceCanAccessPeer(&backward, to, from));
    if (forward != 0 && backward != 0) {
      enable_one_way(from, to);
      enable_one_way(to, from);
    } else {
      notes.push_back(fmt::format("note: GPU {} and GPU {} cannot access each other's memory directly; their "
                                  "peer copies are staged through host memory by the driver", from, to));
    }
  }
  return notes;
}

}  // namespace gpuprof::workloads
