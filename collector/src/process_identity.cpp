#include "gpuprof/collector/process_identity.hpp"

#include <time.h>
#include <unistd.h>

#include <charconv>
#include <fstream>
#include <iterator>

#include "gpuprof/launcher/output_pattern.hpp"

namespace gpuprof::collector {
namespace {

std::optional<std::int32_t> integer_variable(const EnvironmentLookup& environment, const char* name) {
  const auto text = environment(name);
  if (!text) return std::nullopt;
  std::int32_t value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size() || value < 0) return std::nullopt;
  return value;
}

std::optional<std::int32_t> first_of(const EnvironmentLookup& environment, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (auto value = integer_variable(environment, name)) return value;
  }
  return std::nullopt;
}

}  // namespace

void detect_ranks(const EnvironmentLookup& environment, ProcessIdentity& identity) {
  identity.rank = first_of(environment, {"RANK", "OMPI_COMM_WORLD_RANK", "PMI_RANK", "SLURM_PROCID"});
  identity.world_size = first_of(environment, {"WORLD_SIZE", "OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"});
  identity.local_rank =
      first_of(environment, {"LOCAL_RANK", "OMPI_COMM_WORLD_LOCAL_RANK", "MPI_LOCALRANKID", "SLURM_LOCALID"});
}

std::string read_command_line(const std::string& cmdline_path) {
  std::ifstream file(cmdline_path, std::ios::binary);
  std::string raw((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  while (!raw.empty() && raw.back() == '\0') raw.pop_back();
  for (char& character : raw) {
    if (character == '\0') character = ' ';
  }
  return raw;
}

ProcessIdentity current_process_identity(const EnvironmentLookup& environment) {
  const auto context = launcher::current_process_context();
  ProcessIdentity identity;
  identity.host_name = context.host;
  identity.pid = context.pid;
  identity.command_line = read_command_line();
  detect_ranks(environment, identity);
  return identity;
}

std::string format_clock_calibration(const std::vector<ClockPair>& pairs) {
  std::string text = "[";
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    if (i > 0) text += ",";
    text += "[" + std::to_string(pairs[i].gpu_ns) + "," + std::to_string(pairs[i].realtime_ns) + "]";
  }
  return text + "]";
}

std::int64_t realtime_now_ns() {
  timespec now{};
  ::clock_gettime(CLOCK_REALTIME, &now);
  return std::int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
}

void write_identity_meta(trace::TraceWriter& writer, const ProcessIdentity& identity) {
  writer.set_meta("source_format", "collector");
  writer.set_meta("host_name", identity.host_name);
  writer.set_meta("pid", std::to_string(identity.pid));
  writer.set_meta("command_line", identity.command_line);
  if (identity.rank) writer.set_meta("rank", std::to_string(*identity.rank));
  if (identity.world_size) writer.set_meta("world_size", std::to_string(*identity.world_size));
  if (identity.local_rank) writer.set_meta("local_rank", std::to_string(*identity.local_rank));
}

}  // namespace gpuprof::collector
