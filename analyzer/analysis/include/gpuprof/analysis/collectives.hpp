#pragma once

// Collective bandwidth (issue 17): per collective kind, group size and message
// size, how many ran, how long their kernels took, and the algorithm and bus
// bandwidth as NCCL tests define them (nccl-tests doc/PERFORMANCE.md):
//   algbw = S / t,  busbw = algbw × factor,
// where t is the mean kernel time and S the size of the whole operation in
// bytes: the buffer of one rank for all-reduce, broadcast, reduce, send and
// all-to-all; the input (n chunks) for reduce-scatter; the output (n chunks)
// for all-gather; the received buffer for recv. Factors, for n ranks:
// all-reduce 2(n−1)/n; all-gather, reduce-scatter, all-to-all (n−1)/n;
// broadcast, reduce, send, recv 1.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

enum class CollectiveKind { all_reduce, all_gather, reduce_scatter, all_to_all, broadcast, reduce, send, recv, other };

std::string_view to_string(CollectiveKind kind);
// From the source's name: PyTorch's ("allreduce", "_allgather_base", "reduce_scatter_tensor_coalesced",
// "all_to_all", "send") or NCCL's ("AllReduce"); anything else (barrier, gather, scatter) is `other`.
CollectiveKind collective_kind(std::string_view name);
// NCCL tests' bus bandwidth factor for `ranks` ranks; nullopt for `other` or fewer than one rank.
std::optional<double> bus_bandwidth_factor(CollectiveKind kind, std::int64_t ranks);
// S, the bytes the bandwidths divide by the time (see above); nullopt when the size it needs is unknown.
std::optional<std::int64_t> operation_bytes(CollectiveKind kind, std::int64_t in_bytes, std::int64_t out_bytes);

// Collectives of one kind, group size and operation size.
struct CollectiveGroup {
  CollectiveKind kind = CollectiveKind::other;
  std::string name;  // to_string(kind), or the source's name for `other`
  std::int64_t group_size = trace::kUnknown;
  std::int64_t bytes = trace::kUnknown;  // S; kUnknown when the trace does not say
  std::int64_t count = 0;
  std::int64_t total_ns = 0;  // sum of the kernels' durations
  double mean_ns = 0.0;
  // GB/s (bytes per ns); nullopt when S, the group size or the time is unknown or zero.
  std::optional<double> algorithm_gbps, bus_gbps;
};

struct CollectiveReport {
  std::vector<CollectiveGroup> groups;  // by kind, name, group size, bytes
  // Rows of the collectives table: matched (the sum of groups' counts) + unmatched + ambiguous.
  std::int64_t rows = 0;
  std::int64_t unmatched = 0;  // no kernel on that device has the row's correlation id
  std::int64_t ambiguous = 0;  // several kernels do (CUDA graph launches): the time is not one kernel's
};

CollectiveReport analyze_collectives(const trace::TraceModel& model);

}  // namespace gpuprof::analysis
