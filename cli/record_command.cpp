#include <fmt/format.h>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "command.hpp"
#include "gpuprof/launcher/child_process.hpp"
#include "gpuprof/launcher/collector_environment.hpp"
#include "gpuprof/launcher/collector_location.hpp"
#include "gpuprof/launcher/output_claim.hpp"
#include "gpuprof/launcher/output_pattern.hpp"
#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/trace/output_guard.hpp"
#include "gpuprof/trace/temporary_files.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_indexes.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

namespace env = launcher::environment;
namespace fs = std::filesystem;

struct RecordArguments {
  std::string output = std::string(launcher::kDefaultOutputPattern);
  std::string trace = "cuda,nvtx,api,sync,memory";
  std::string buffer_size;
  unsigned buffer_count = 0;
  unsigned flush_interval_ms = 0;
  bool force = false;
  std::vector<std::string> command;
};

int refuse(const std::string& problem) {
  fmt::print(stderr, "gpuprof: {}\n", printable(problem));
  return kExitBadInput;
}

// "8M", "512KiB", "1048576": bytes.
std::optional<unsigned long long> parse_bytes(std::string text) {
  std::size_t digits = 0;
  while (digits < text.size() && std::isdigit(static_cast<unsigned char>(text[digits]))) ++digits;
  if (digits == 0) return std::nullopt;
  const unsigned long long number = std::stoull(text.substr(0, digits));
  std::string unit = text.substr(digits);
  std::transform(unit.begin(), unit.end(), unit.begin(), [](unsigned char c) { return std::tolower(c); });
  const std::map<std::string, unsigned long long> units = {
      {"", 1}, {"b", 1}, {"k", 1ull << 10}, {"kib", 1ull << 10}, {"m", 1ull << 20}, {"mib", 1ull << 20}};
  const auto found = units.find(unit);
  if (found == units.end()) return std::nullopt;
  return number * found->second;
}

std::string check_trace_list(const std::string& list) {
  static const std::set<std::string> known = {"cuda", "nvtx", "api", "api-all", "sync", "memory", "driver"};
  std::size_t position = 0;
  while (position <= list.size()) {
    auto comma = list.find(',', position);
    if (comma == std::string::npos) comma = list.size();
    const auto item = list.substr(position, comma - position);
    if (!item.empty() && !known.count(item)) {
      return "--trace: unknown kind '" + item + "' (use cuda,nvtx,api,api-all,sync,memory,driver)";
    }
    position = comma + 1;
  }
  return {};
}

// Children may change folder, so relative patterns are anchored here.
std::string absolute_pattern(const std::string& pattern) {
  if (!pattern.empty() && pattern.front() == '/') return pattern;
  return (fs::current_path() / pattern).string();
}

// Problems the launcher can see before the program starts (exit 2, program not run).
// `command`: the program and its arguments, files that the trace must not replace.
std::string check_output(const std::string& pattern, bool force, const std::vector<std::string>& command) {
  std::string path;
  try {
    path = launcher::expand_output_pattern(pattern, launcher::current_process_context());
  } catch (const std::invalid_argument& problem) {
    return std::string("-o: ") + problem.what();
  }
  if (auto problem = launcher::check_output_folder(path); !problem.empty()) return problem;
  try {
    refuse_writing_over_inputs({path}, command);
  } catch (const TraceError& error) {
    return error.what();
  }
  // With %p or %n the final name is only known in the program; the collector checks it there.
  if (!launcher::is_per_process(pattern) && !force && fs::exists(path)) {
    return path + " already exists (use --force to overwrite, or %p / %n in the pattern)";
  }
  return {};
}

// Inside a private temporary folder, so a killed launcher leaves nothing a later run cannot recognise.
std::string make_files_list(const std::string& folder) {
  const auto path = (fs::path(folder) / "files").string();
  std::ofstream(path).close();
  return path;
}

std::vector<std::string> read_files_list(const std::string& path) {
  std::vector<std::string> files;
  std::ifstream list(path);
  for (std::string line; std::getline(list, line);) {
    if (!line.empty() && std::find(files.begin(), files.end(), line) == files.end()) files.push_back(line);
  }
  return files;
}

// The collector leaves the indexes for SQL users to us, off the program's exit path.
void build_indexes_of(const std::string& path) {
  try {
    trace::build_trace_indexes(path);
  } catch (const TraceError& error) {
    fmt::print(stderr, "gpuprof: {}: indexes not built ({}); the analyses do not need them\n", printable(path),
               error.problem());
  }
}

// With --quiet only a file that lost data or has problems is mentioned.
void print_summary(const std::string& path, const Invocation& invocation) {
  try {
    trace::TraceFile file(path);
    std::int64_t events = 0;
    for (const auto& count : file.counts()) events += count.rows;
    const auto stats = file.stats();
    std::string problems;
    for (const auto& stat : stats) {
      if (stat.severity == trace::Severity::error) problems += "; " + stat.detail.value_or(stat.name);
    }
    const auto loss = analysis::recording_loss(stats);
    if (invocation.quiet && !loss.any() && problems.empty()) return;
    fmt::print(stderr, "gpuprof: wrote {}: {} events, {}{}{}\n", printable(path), events,
               loss.any() ? "LOST DATA: " : "", loss.text(), problems);
  } catch (const TraceError& error) {
    fmt::print(stderr, "gpuprof: wrote {}, but cannot read it back: {}\n", printable(path), printable(error.problem()));
  }
}

std::map<std::string, std::string> collector_environment(const RecordArguments& arguments,
                                                         const std::string& collector,
                                                         const std::string& files_list) {
  std::map<std::string, std::string> overrides = {
      {env::kCudaInjection, collector},
      {env::kNvtxInjection, collector},
      {env::kOutputPattern, absolute_pattern(arguments.output)},
      {env::kForce, arguments.force ? "1" : "0"},
      {env::kTrace, arguments.trace},
      {env::kFilesList, files_list}};
  if (!arguments.buffer_size.empty()) {
    overrides[env::kBufferSize] = std::to_string(*parse_bytes(arguments.buffer_size));
  }
  if (arguments.buffer_count > 0) overrides[env::kBufferCount] = std::to_string(arguments.buffer_count);
  if (arguments.flush_interval_ms > 0) overrides[env::kFlushIntervalMs] = std::to_string(arguments.flush_interval_ms);
  return overrides;
}

std::string check_arguments(const RecordArguments& arguments) {
  if (auto problem = check_trace_list(arguments.trace); !problem.empty()) return problem;
  if (!arguments.buffer_size.empty()) {
    const auto bytes = parse_bytes(arguments.buffer_size);
    if (!bytes || *bytes < env::kMinBufferSize || *bytes > env::kMaxBufferSize) {
      return "--buffer-size: must be between 64KiB and 256MiB (e.g. 8M)";
    }
  }
  return check_output(absolute_pattern(arguments.output), arguments.force, arguments.command);
}

int run_record(const RecordArguments& arguments, const Invocation& invocation) {
  if (auto problem = check_arguments(arguments); !problem.empty()) return refuse(problem);
  const auto collector = launcher::find_collector_library();
  if (collector.empty()) {
    fmt::print(stderr, "gpuprof: libgpuprof_collector.so not found (build it, or set {})\n", env::kCollectorPath);
    return kExitFailure;
  }
  const auto folder = make_temporary_folder();
  const auto files_list = make_files_list(folder.path);
  const TemporaryName files_list_name(files_list);
  const auto result = launcher::run_child(arguments.command, collector_environment(arguments, collector, files_list));
  if (!result.started) fmt::print(stderr, "gpuprof: cannot run {}\n", printable(result.start_error));
  const auto files = read_files_list(files_list);
  std::error_code ignored;
  fs::remove_all(folder.path, ignored);
  for (const auto& file : files) {
    build_indexes_of(file);
    print_summary(file, invocation);
  }
  if (files.empty() && result.started) {
    fmt::print(stderr, "gpuprof: no trace written (the program made no CUDA calls, or recording could not start)\n");
  }
  if (result.signal != 0) fmt::print(stderr, "gpuprof: the program was killed by signal {}\n", result.signal);
  return result.exit_code;
}

}  // namespace

void add_record_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<RecordArguments>();
  auto* command = app.add_subcommand(
      "record", "Run a CUDA program and record what its GPUs do: gpuprof record -- CMD ARGS. If gpuprof itself is "
                "killed, the program gets SIGTERM (it never runs on unobserved)");
  command->add_option("-o,--output", arguments->output,
                      "Trace file pattern: %p pid, %h host, %q{VAR} environment variable, %n unique number")
      ->capture_default_str()
      ->check(kNonEmptyPath);
  command
      ->add_option("--trace", arguments->trace,
                   "What to record: cuda,nvtx,api,sync,memory,driver; api-all also records the frequent calls that "
                   "launch nothing (cudaGetDevice, cudaGetLastError, ...); memory: allocations and frees")
      ->capture_default_str();
  command->add_option("--buffer-size", arguments->buffer_size, "Bytes per CUPTI activity buffer (e.g. 8M)");
  command->add_option("--buffer-count", arguments->buffer_count,
                      "Activity buffers at most (allocated as needed; CUDA 13 uses one per thread)");
  command->add_option("--flush-interval", arguments->flush_interval_ms, "Milliseconds between flushes (default 1000)");
  command->add_flag("-f,--force", arguments->force, "Overwrite existing trace files");
  command->add_option("command", arguments->command, "The program and its arguments, after --")->required();
  command->callback([arguments, &action] {
    action = [arguments](const Invocation& invocation) { return run_record(*arguments, invocation); };
  });
}

}  // namespace gpuprof::cli
