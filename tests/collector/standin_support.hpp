#pragma once

// Runs `gpuprof record` over the stand-in host program (tests/collector/standin)
// and reads what it wrote: the collector's end-to-end path on a machine without a GPU.

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "gpuprof/trace/trace_file.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::testing {

struct Recording {
  int exit_code = -1;
  std::string errors;  // what gpuprof record and the program printed on stderr
  std::vector<std::filesystem::path> traces;
};

// `gpuprof record -o FOLDER/t_%p.sqlite [record_options] -- standin_host host_arguments`, stopped
// after `time_limit_s` (exit 124 then). `environment` adds or replaces variables.
Recording record_standin(const TemporaryFolder& folder, const std::vector<std::string>& host_arguments,
                         const std::map<std::string, std::string>& environment = {},
                         const std::vector<std::string>& record_options = {}, int time_limit_s = 60);

// The same command line as one shell-quoted string (for tests that wrap it).
std::string standin_record_command(const std::string& output, const std::vector<std::string>& host_arguments,
                                   const std::vector<std::string>& record_options = {});
std::map<std::string, std::string> standin_environment();

std::int64_t count_rows(trace::TraceFile& file, const std::string& sql);
std::map<std::string, trace::StatRow> stats_by_name(trace::TraceFile& file);
// The collector finished the file: the end time and final calibration are written.
bool trace_is_finished(const std::filesystem::path& path);

}  // namespace gpuprof::testing
