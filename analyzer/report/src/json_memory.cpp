#include "json_memory.hpp"

#include "json_fields.hpp"

namespace gpuprof::report {
namespace {

using json::field;
using json::key;

void write_timeline(JsonWriter& w, const std::vector<memory::MemoryPoint>& timeline) {
  key(w, "timeline");
  w.StartArray();
  for (const auto& point : timeline) {
    w.StartArray();
    w.Int64(point.time_ns);
    w.Int64(point.bytes);
    w.EndArray();
  }
  w.EndArray();
}

void write_device(JsonWriter& w, const memory::DeviceMemory& d) {
  w.StartObject();
  field(w, "device", std::int64_t{d.device});
  field(w, "source", memory::to_string(d.source));
  field(w, "allocations", d.allocations);
  field(w, "frees", d.frees);
  field(w, "allocated_bytes", d.allocated_bytes);
  field(w, "freed_bytes", d.freed_bytes);
  field(w, "baseline_bytes", d.baseline_bytes);
  field(w, "peak_bytes", d.peak_bytes);
  field(w, "peak_ns", d.peak_time_ns);
  field(w, "mean_bytes", d.mean_bytes);
  field(w, "final_bytes", d.final_bytes);
  field(w, "first_ns", d.first_ns);
  field(w, "last_ns", d.last_ns);
  key(w, "capacity_bytes");
  if (d.capacity_bytes == trace::kUnknown) w.Null(); else w.Int64(d.capacity_bytes);
  field(w, "recorded_mismatches", d.recorded_mismatches);
  field(w, "host_allocations", d.host_allocations);
  field(w, "host_allocated_bytes", d.host_allocated_bytes);
  write_timeline(w, d.timeline);
  w.EndObject();
}

}  // namespace

void write_memory(JsonWriter& w, const ReportInput& input) {
  key(w, "memory");
  w.StartArray();
  for (const auto& rank : input.ranks) {
    if (!input.has(Section::memory)) break;
    w.StartObject();
    field(w, "rank", std::int64_t{rank.rank});
    key(w, "recorded");
    w.Bool(rank.memory.recorded());
    field(w, "events", rank.memory.events);
    key(w, "devices");
    w.StartArray();
    for (const auto& device : rank.memory.devices) write_device(w, device);
    w.EndArray();
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace gpuprof::report
