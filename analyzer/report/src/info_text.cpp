#include <fmt/format.h>

#include <map>

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/analysis/time_base_notice.hpp"
#include "gpuprof/report/info_document.hpp"
#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/utf8_text.hpp"
#include "gpuprof/units/units.hpp"

// `gpuprof info` as text (gpuprof/report/info_document.hpp).

namespace gpuprof::report {
namespace {

std::string value_or(const std::map<std::string, std::string>& meta, const std::string& key,
                     const std::string& fallback = "unknown") {
  const auto found = meta.find(key);
  return found == meta.end() || found->second.empty() ? fallback : printable(found->second);
}

std::string describe_device(const trace::DeviceRow& device) {
  std::string text = fmt::format("{}: {}", device.id, printable(device.name.value_or("unknown GPU")));
  std::vector<std::string> details;
  if (device.compute_major && device.compute_minor) {
    details.push_back(fmt::format("sm_{}{}", *device.compute_major, *device.compute_minor));
  }
  if (device.sm_count) details.push_back(fmt::format("{} SMs", *device.sm_count));
  if (device.memory_bytes) details.push_back(units::format_bytes(*device.memory_bytes));
  if (device.pci_bus_id) details.push_back("PCI " + printable(*device.pci_bus_id));
  if (!details.empty()) text += " (" + fmt::format("{}", fmt::join(details, ", ")) + ")";
  return text;
}

// "  command         TEXT", continued under TEXT, within the terminal's 120 columns.
std::string field_line(std::string_view label, const std::string& text) {
  return wrap_text(fmt::format("  {:<16}", label), std::string(18, ' '), text, kTerminalWidth);
}

void describe_stats(trace::TraceFile& file, std::string& out) {
  const auto stats = file.stats();
  if (stats.empty()) return;
  out += "  collector stats\n";
  for (const auto& stat : stats) {
    // The row's own detail follows what the stat counts, unless it says the same.
    const auto description = trace::stat_description(stat.name);
    const bool detail_adds = stat.detail && *stat.detail != description;
    const auto head = fmt::format("    {:<28} {:>14}  ", printable(stat.name), stat.value);
    out += wrap_text(head, std::string(head.size() + 6, ' '),
                             fmt::format("{:<4}  {}{}", trace::to_string(stat.severity), description,
                                         detail_adds ? ": " + printable(*stat.detail) : ""),
                             kTerminalWidth);
  }
  if (const auto loss = analysis::recording_loss(stats); loss.any()) {
    out += fmt::format("  WARNING: data was lost while recording ({}); totals undercount the real activity\n",
                       loss.text());
  }
}

// The whole description, built before anything is printed: a file that fails
// halfway prints nothing on stdout.
std::string describe(const std::string& shown_path, const std::string& path) {
  trace::TraceFile file(path);
  std::string out;
  const auto meta = file.meta();
  out += fmt::format("{}{}\n", printable(shown_path), shown_path == path ? "" : "  (imported for this command)");
  out += fmt::format("  schema          {} ({})\n", file.schema_version_text(), value_or(meta, "format"));
  out += fmt::format("  source          {}   tool {}\n", value_or(meta, "source_format"),
                     value_or(meta, "tool_version"));
  out += fmt::format("  host            {}   pid {}   rank {} of {}\n", value_or(meta, "host_name"),
                     value_or(meta, "pid"), value_or(meta, "rank"), value_or(meta, "world_size"));
  if (meta.count("command_line")) out += field_line("command", printable(meta.at("command_line")));
  if (const auto notice = analysis::clock_shift_notice(meta)) out += field_line("time base", printable(*notice));
  if (const auto fit = analysis::clock_fit_notice(meta)) out += field_line("clock fit", *fit);
  const auto [start, end] = file.time_span();
  if (start && end) {
    out += fmt::format("  time span       {}  ({} .. {} ns)\n", units::format_duration(*end - *start), *start,
                       *end);
  } else {
    out += "  time span       no events\n";
  }
  const auto devices = file.devices();
  out += fmt::format("  devices         {}\n", devices.size());
  for (const auto& device : devices) out += fmt::format("    {}\n", describe_device(device));
  out += "  rows\n";
  for (const auto& count : file.counts()) out += fmt::format("    {:<14} {:>14}\n", count.table, count.rows);
  describe_stats(file, out);
  return out;
}

}  // namespace

std::string info_text(const InfoTrace& trace) { return describe(trace.shown_path, trace.trace_path); }

}  // namespace gpuprof::report
