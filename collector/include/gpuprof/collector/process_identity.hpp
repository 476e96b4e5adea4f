#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/collector/collector_config.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::collector {

// Who this process is within a (possibly distributed) training job.
struct ProcessIdentity {
  std::string host_name;
  std::int64_t pid = 0;
  std::string command_line;
  std::optional<std::int32_t> rank, world_size, local_rank;
};

// Rank and world size from the variables of torchrun (RANK, WORLD_SIZE),
// Open MPI (OMPI_COMM_WORLD_*), MPICH/PMI (PMI_*) and Slurm (SLURM_PROCID,
// SLURM_NTASKS), in that order of preference; LOCAL_RANK (or its MPI and Slurm
// forms) for the rank within the node.
void detect_ranks(const EnvironmentLookup& environment, ProcessIdentity& identity);

// The command line from /proc/self/cmdline, arguments separated by spaces.
std::string read_command_line(const std::string& cmdline_path = "/proc/self/cmdline");

ProcessIdentity current_process_identity(const EnvironmentLookup& environment);

// A GPU timestamp and the wall clock read at (nearly) the same moment, so that
// traces from several processes and hosts can be aligned.
struct ClockPair {
  std::int64_t gpu_ns = 0;
  std::int64_t realtime_ns = 0;
};
// The meta value: [[gpu_ns,realtime_ns],...], as the other producers write it.
std::string format_clock_calibration(const std::vector<ClockPair>& pairs);
std::int64_t realtime_now_ns();

void write_identity_meta(trace::TraceWriter& writer, const ProcessIdentity& identity);

}  // namespace gpuprof::collector
