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

void write_distributed_info(const trace::TraceModel& model, EventWriter& writer) {
  const auto rank = model.rank();
  if (!rank) return;
  writer.key("distributedInfo");
  writer.json().StartObject();
  const auto backend = model.meta.find("distributed_backend");
  if (backend != model.meta.end()) writer.string_arg("backend", backend->second);
  writer.number_arg("rank", *rank);
  if (const auto world_size = model.world_size()) writer.number_arg("world_size", *world_size);
  writer.json().EndObject();
}

}  // namespace

void write_trace_header(const trace::TraceModel& model, std::int64_t base_ns, EventWriter& writer) {
  writer.number_arg("schemaVersion", 1);
  writer.string_arg("traceName", "gpuprof export");
  writer.key("deviceProperties");
  writer.json().StartArray();
  for (const auto& device : model.devices) write_device(device, writer);
  writer.json().EndArray();
  write_distributed_info(model, writer);
  // Kineto's convention: event times are microseconds after this instant.
  writer.number_arg("baseTimeNanoseconds", base_ns);
}

}  // namespace gpuprof::exporters
