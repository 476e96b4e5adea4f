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
  std::optional<std::int64_t> pid, start_ns, end_ns;  // meta pid, start_ns, end_ns
};

// Reads the meta keys of a gpuprof trace. Throws TraceError for an unreadable file.
RankIdentity read_identity(const std::string& input, const std::string& trace_path);

struct RankAssignment {
  std::vector<std::int32_t> ranks;   // parallel to the identities
  std::vector<std::string> notices;  // one per rank not taken from the file's meta
};

// The rank of each identity, in order. A lone file without a rank is rank 0.
// `given` (--ranks) sets every rank, one per file; otherwise ranks come from
// meta, and when no file has one, from the files' order (the command line's,
// folders sorted by name), with a notice per file. Throws TraceError::bad_input
// naming the file for a duplicate rank, a file without a rank among files with
// ranks, two rank-less files from one process (same pid and host, overlapping
// times; not checked with `given`, since containers reuse pids), one file
// named twice, a `given` of the wrong length, or files of
// different jobs (world size, job id, or the profiled command line of collector
// traces differ).
RankAssignment assign_ranks(const std::vector<RankIdentity>& identities, const std::vector<std::int32_t>& given = {});

}  // namespace gpuprof::job
