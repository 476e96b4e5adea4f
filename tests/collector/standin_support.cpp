#include "standin_support.hpp"

#include <algorithm>

#include "gpuprof/launcher/child_process.hpp"

namespace gpuprof::testing {
namespace {

namespace fs = std::filesystem;

std::string quoted(const std::string& text) {
  std::string result = "'";
  for (char c : text) result += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return result + "'";
}

std::vector<fs::path> traces_in(const fs::path& folder) {
  std::vector<fs::path> traces;
  for (const auto& entry : fs::directory_iterator(folder)) {
    if (entry.path().extension() == ".sqlite") traces.push_back(entry.path());
  }
  std::sort(traces.begin(), traces.end());
  return traces;
}

}  // namespace

std::map<std::string, std::string> standin_environment() {
  return {{"LD_LIBRARY_PATH", STANDIN_LIB_DIR}, {"GPUPROF_BUFFER_SIZE", "65536"}};
}

std::string standin_record_command(const std::string& output, const std::vector<std::string>& host_arguments,
                                   const std::vector<std::string>& record_options) {
  std::string command = quoted(GPUPROF_BINARY) + " record -o " + quoted(output);
  for (const auto& option : record_options) command += " " + quoted(option);
  command += " -- " + quoted(STANDIN_HOST);
  for (const auto& argument : host_arguments) command += " " + quoted(argument);
  return command;
}

Recording record_standin(const TemporaryFolder& folder, const std::vector<std::string>& host_arguments,
                         const std::map<std::string, std::string>& environment,
                         const std::vector<std::string>& record_options, int time_limit_s) {
  const auto errors = folder.file("stderr.txt");
  const std::string command = "timeout -k 5 " + std::to_string(time_limit_s) + " " +
                              standin_record_command(folder.file("t_%p.sqlite"), host_arguments, record_options) +
                              " 2> " + quoted(errors);
  auto variables = standin_environment();
  for (const auto& [name, value] : environment) variables[name] = value;
  Recording recording;
  recording.exit_code = launcher::run_child({"/bin/sh", "-c", command}, variables).exit_code;
  recording.errors = read_file(errors);
  recording.traces = traces_in(folder.path());
  return recording;
}

std::int64_t count_rows(trace::TraceFile& file, const std::string& sql) {
  return file.database().query_int(sql).value_or(-1);
}

std::map<std::string, trace::StatRow> stats_by_name(trace::TraceFile& file) {
  std::map<std::string, trace::StatRow> stats;
  for (const auto& stat : file.stats()) stats[stat.name] = stat;
  return stats;
}

bool trace_is_finished(const std::filesystem::path& path) {
  trace::TraceFile file(path.string());
  const auto meta = file.meta();
  return meta.count("end_ns") != 0 && meta.count("clock_calibration") != 0;
}

}  // namespace gpuprof::testing
