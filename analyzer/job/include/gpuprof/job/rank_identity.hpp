#pragma once

// Which rank of which job a trace file is, from its meta table, and the checks
// that a set of files is one job with one file per rank.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::job {

struct RankIdentity {
  std::string input;       // as the user named it
  std::string trace_path;  // the gpuprof trace: `input`, or its imported copy
  std::optional<std::int32_t> rank, world_size;
  std::string source_format, command_line, job_id, host_name;
};

// Reads the meta keys of a gpuprof trace. Throws TraceError for an unreadable file.
RankIdentity read_identity(const std::string& input, const std::string& trace_path);

// The rank of each identity, in order. A lone file without a rank is rank 0.
// Throws TraceError::bad_input naming the file for a duplicate rank, a file
// without a rank among several, or files of different jobs (world size, job id,
// or the profiled command line of collector traces differ).
std::vector<std::int32_t> assign_ranks(const std::vector<RankIdentity>& identities);

}  // namespace gpuprof::job
