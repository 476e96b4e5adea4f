#include "gpuprof/report/info_document.hpp"

#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <set>

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/analysis/time_base_notice.hpp"
#include "gpuprof/report/json_fields.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {
namespace {

using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

// Names and meta values come from the files as they are: made valid UTF-8 before they are written.
void string(Writer& json, const std::string& text) { json::string(json, clean_utf8(text)); }

template <typename Value>
void optional(Writer& json, const char* key, const std::optional<Value>& value) {
  json.Key(key);
  if (!value) {
    json.Null();
  } else if constexpr (std::is_same_v<Value, std::string>) {
    string(json, *value);
  } else {
    json.Int64(static_cast<std::int64_t>(*value));
  }
}

void devices(Writer& json, trace::TraceFile& file) {
  json.Key("devices");
  json.StartArray();
  for (const auto& device : file.devices()) {
    json.StartObject();
    json.Key("id");
    json.Int(device.id);
    optional(json, "name", device.name);
    optional(json, "compute_major", device.compute_major);
    optional(json, "compute_minor", device.compute_minor);
    optional(json, "sm_count", device.sm_count);
    optional(json, "memory_bytes", device.memory_bytes);
    optional(json, "pci_bus_id", device.pci_bus_id);
    json.EndObject();
  }
  json.EndArray();
}

void stats_and_loss(Writer& json, trace::TraceFile& file) {
  const auto stats = file.stats();
  json.Key("stats");
  json.StartArray();
  for (const auto& stat : stats) {
    json.StartObject();
    json.Key("name");
    string(json, stat.name);
    json::field(json, "value", stat.value);
    json::field(json, "severity", trace::to_string(stat.severity));
    json.Key("description");
    string(json, std::string(trace::stat_description(stat.name)));
    json.Key("known");
    json.Bool(trace::find_stat(stat.name) != nullptr);
    optional(json, "detail", stat.detail);
    json.EndObject();
  }
  json.EndArray();
  const auto loss = analysis::recording_loss(stats);
  json.Key("recording_loss");
  json.StartObject();
  json::field(json, "dropped_records", loss.dropped_records);
  json::field(json, "refused_buffer_requests", loss.refused_buffer_requests);
  json::field(json, "buffers_not_returned", loss.buffers_not_returned);
  json::field(json, "records_taken", loss.records_taken);
  json::field(json, "records_after_stop", loss.records_after_stop);
  json.EndObject();
}

void describe(Writer& json, const InfoTrace& trace) {
  trace::TraceFile file(trace.trace_path);
  json.StartObject();
  json.Key("path");
  string(json, trace.shown_path);
  json.Key("imported");
  json.Bool(trace.shown_path != trace.trace_path);
  json.Key("schema_version");
  string(json, file.schema_version_text());
  const auto meta = file.meta();
  json.Key("meta");
  json.StartObject();
  // Keys that differ only in bytes clean_utf8 replaces would come out the same: each gets a number instead.
  std::set<std::string> written;
  for (const auto& [key, value] : meta) {
    auto name = clean_utf8(key);
    for (int copy = 2; !written.insert(name).second; ++copy) name = clean_utf8(key) + " (" + std::to_string(copy) + ")";
    json.Key(name.c_str(), static_cast<rapidjson::SizeType>(name.size()));
    string(json, value);
  }
  json.EndObject();
  optional(json, "time_base", analysis::clock_shift_notice(meta));
  optional(json, "clock_fit", analysis::clock_fit_notice(meta));
  const auto [start, end] = file.time_span();
  optional(json, "start_ns", start);
  optional(json, "end_ns", end);
  devices(json, file);
  json.Key("rows");
  json.StartObject();
  for (const auto& count : file.counts()) {
    json.Key(count.table.c_str());
    json.Int64(count.rows);
  }
  json.EndObject();
  stats_and_loss(json, file);
  json.EndObject();
}

}  // namespace

std::string info_json_trace(const InfoTrace& trace) {
  rapidjson::StringBuffer buffer;
  Writer json(buffer);
  describe(json, trace);
  return std::string(buffer.GetString(), buffer.GetSize());
}

std::string info_json_document(const std::vector<std::string>& trace_objects) {
  std::string document = R"({"format":"gpuprof.info/1","traces":[)";
  for (std::size_t i = 0; i < trace_objects.size(); ++i) document += (i ? "," : "") + trace_objects[i];
  return document + "]}\n";
}

}  // namespace gpuprof::report
