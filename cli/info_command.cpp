#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <memory>
#include <optional>

#include "command.hpp"
#include "gpuprof/analysis/time_base_notice.hpp"
#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::cli {
namespace {

struct InfoArguments {
  std::vector<std::string> traces;
};

std::optional<std::int64_t> parse_int(const std::string& text) {
  std::int64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Start and end of everything recorded: from the metadata when the producer
// wrote it, otherwise from the tables.
std::pair<std::optional<std::int64_t>, std::optional<std::int64_t>> time_span(
    trace::TraceFile& file, const std::map<std::string, std::string>& meta) {
  const auto start = meta.count("start_ns") ? parse_int(meta.at("start_ns")) : std::nullopt;
  const auto end = meta.count("end_ns") ? parse_int(meta.at("end_ns")) : std::nullopt;
  if (start && end) return {start, end};
  std::optional<std::int64_t> first, last;
  for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "syncs", "ranges"}) {
    const auto low = file.database().query_int(fmt::format("SELECT min(start_ns) FROM {}", table));
    const auto high = file.database().query_int(fmt::format("SELECT max(end_ns) FROM {}", table));
    if (low) first = first ? std::min(*first, *low) : *low;
    if (high) last = last ? std::max(*last, *high) : *high;
  }
  return {first, last};
}

std::string value_or(const std::map<std::string, std::string>& meta, const std::string& key,
                     const std::string& fallback = "unknown") {
  const auto found = meta.find(key);
  return found == meta.end() || found->second.empty() ? fallback : found->second;
}

std::string describe_device(const trace::DeviceRow& device) {
  std::string text = fmt::format("{}: {}", device.id, device.name.value_or("unknown GPU"));
  std::vector<std::string> details;
  if (device.compute_major && device.compute_minor) {
    details.push_back(fmt::format("sm_{}{}", *device.compute_major, *device.compute_minor));
  }
  if (device.sm_count) details.push_back(fmt::format("{} SMs", *device.sm_count));
  if (device.memory_bytes) details.push_back(units::format_bytes(*device.memory_bytes));
  if (device.pci_bus_id) details.push_back("PCI " + *device.pci_bus_id);
  if (!details.empty()) text += " (" + fmt::format("{}", fmt::join(details, ", ")) + ")";
  return text;
}

void print_stats(trace::TraceFile& file) {
  const auto stats = file.stats();
  if (stats.empty()) return;
  fmt::print("  collector stats\n");
  std::int64_t dropped = 0;
  for (const auto& stat : stats) {
    fmt::print("    {:<28} {:>14}  {}{}\n", stat.name, stat.value, trace::to_string(stat.severity),
               stat.detail ? "  " + *stat.detail : "");
    if (stat.name.find("dropped") != std::string::npos) dropped += stat.value;
  }
  if (dropped > 0) {
    fmt::print("  WARNING: {} records were dropped while recording; totals undercount the real activity\n",
               dropped);
  }
}

// A foreign trace (Kineto JSON, Nsight Systems, nvprof) is imported to a temporary
// gpuprof trace first. Anything not recognised as foreign goes to TraceFile as it
// is, whose refusal says precisely what is wrong with it.
std::string as_gpuprof_trace(const std::string& path, importers::TemporaryStore& store) {
  importers::SourceFormat format = importers::SourceFormat::gpuprof;
  try {
    format = importers::detect_source_format(path);
  } catch (const TraceError&) {
    return path;
  }
  return format == importers::SourceFormat::gpuprof ? path : importers::open_as_trace(path, store);
}

void print_info(const std::string& shown_path, const std::string& path) {
  trace::TraceFile file(path);
  const auto meta = file.meta();
  fmt::print("{}{}\n", shown_path, shown_path == path ? "" : "  (imported for this command)");
  fmt::print("  schema          {} ({})\n", file.schema_version_text(), value_or(meta, "format"));
  fmt::print("  source          {}   tool {}\n", value_or(meta, "source_format"), value_or(meta, "tool_version"));
  fmt::print("  host            {}   pid {}   rank {} of {}\n", value_or(meta, "host_name"), value_or(meta, "pid"),
             value_or(meta, "rank"), value_or(meta, "world_size"));
  if (meta.count("command_line")) fmt::print("  command         {}\n", meta.at("command_line"));
  if (const auto notice = analysis::clock_shift_notice(meta)) fmt::print("  time base       {}\n", *notice);
  const auto [start, end] = time_span(file, meta);
  if (start && end) {
    fmt::print("  time span       {}  ({} .. {} ns)\n", units::format_duration(*end - *start), *start, *end);
  } else {
    fmt::print("  time span       no events\n");
  }
  const auto devices = file.devices();
  fmt::print("  devices         {}\n", devices.size());
  for (const auto& device : devices) fmt::print("    {}\n", describe_device(device));
  fmt::print("  rows\n");
  for (const auto& count : file.counts()) fmt::print("    {:<14} {:>14}\n", count.table, count.rows);
  print_stats(file);
}

int run_info(const InfoArguments& arguments) {
  importers::TemporaryStore store;
  // Check every file before printing, so a bad file fails the command without half a listing.
  std::vector<std::string> readable;
  for (const auto& path : arguments.traces) {
    readable.push_back(as_gpuprof_trace(path, store));
    trace::TraceFile check(readable.back());
  }
  for (std::size_t index = 0; index < readable.size(); ++index) {
    if (index > 0) fmt::print("\n");
    print_info(arguments.traces[index], readable[index]);
  }
  return kExitOk;
}

}  // namespace

void add_info_command(CLI::App& app, Action& action) {
  auto arguments = std::make_shared<InfoArguments>();
  auto* command = app.add_subcommand(
      "info", "Describe trace files: schema, source, host, ranks, devices, time span, rows per table, collector stats");
  command->add_option("traces", arguments->traces, "Trace files")->required();
  command->callback([arguments, &action] {
    action = [arguments](const Invocation&) { return run_info(*arguments); };
  });
}

}  // namespace gpuprof::cli
