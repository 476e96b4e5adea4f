#include "trace_sections.hpp"

namespace gpuprof::exporters {
namespace {

// The deviceProperties keys the Kineto importer reads back.
void write_device(const trace::DeviceRow& device, EventWriter& writer) {
  writer.json().StartObject();
  writer.number_arg("id", device.id);
  if (device.name) writer.string_arg("name", *device.name);
  if (device.memory_bytes) writer.number_arg("totalGlobalMem", *device.memory_bytes);
  if (device.compute_major) writer.number_arg("computeMajor", *device.compute_major);
  if (device.compute_minor) writer.number_arg("computeMinor", *device.compute_minor);
  if (device.sm_count) writer.number_arg("numSms", *device.sm_count);
  writer.json().EndObject();
}

void write_distributed_info(const TraceHeader& header, EventWriter& writer) {
  if (!header.rank && !header.world_size) return;
  writer.key("distributedInfo");
  writer.json().StartObject();
  if (!header.backend.empty()) writer.string_arg("backend", header.backend);
  if (header.rank) writer.number_arg("rank", *header.rank);
  if (header.world_size) writer.number_arg("world_size", *header.world_size);
  writer.json().EndObject();
}

}  // namespace

TraceHeader trace_header(const trace::TraceModel& model, std::optional<std::int32_t> rank) {
  TraceHeader header;
  header.devices = model.devices;
  header.rank = rank;
  // Kineto writes distributedInfo only for a rank of a distributed job.
  if (rank) header.world_size = model.world_size();
  const auto backend = model.meta.find("distributed_backend");
  if (backend != model.meta.end()) header.backend = backend->second;
  return header;
}

void write_trace_header(const TraceHeader& header, std::int64_t base_ns, EventWriter& writer) {
  writer.number_arg("schemaVersion", 1);
  writer.string_arg("traceName", "gpuprof export");
  writer.key("deviceProperties");
  writer.json().StartArray();
  for (const auto& device : header.devices) write_device(device, writer);
  writer.json().EndArray();
  write_distributed_info(header, writer);
  // Kineto's convention: event times are microseconds after this instant.
  writer.number_arg("baseTimeNanoseconds", base_ns);
}

}  // namespace gpuprof::exporters
