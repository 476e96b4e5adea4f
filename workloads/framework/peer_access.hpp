#pragma once

#include <string>
#include <utility>
#include <vector>

namespace gpuprof::workloads {

// Enables direct peer access for each (from, to) GPU pair that supports it, both ways.
// Returns one note per pair that does not: cudaMemcpyPeerAsync still works there, but the
// driver stages the copy through host memory, which the user should know when reading a trace.
std::vector<std::string> enable_peer_access(const std::vector<std::pair<int, int>>& pairs);

}  // namespace gpuprof::workloads
