#include "gpuprof/importers/kineto_importer.hpp"

#include "gpuprof/trace/trace_error.hpp"
#include "kineto_base_time.hpp"
#include "kineto_converter.hpp"
#include "kineto_reader.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

std::optional<std::int32_t> small_int(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  const auto value = integer_from_text(*text);
  if (!value || *value < 0 || *value > INT32_MAX) return std::nullopt;
  return static_cast<std::int32_t>(*value);
}

void write_meta(const KinetoHeader& header, ImportSink& sink, ImportResult& result) {
  sink.set_meta("source_format", "kineto");
  if (header.schema_version) sink.set_meta("source_version", "schemaVersion " + *header.schema_version);
  if (header.display_time_unit) sink.set_meta("source_display_time_unit", *header.display_time_unit);
  if (header.trace_name) sink.set_meta("source_trace_name", *header.trace_name);
  if (header.backend) sink.set_meta("distributed_backend", *header.backend);
  result.rank = small_int(header.rank);
  result.world_size = small_int(header.world_size);
  if (result.rank) sink.set_meta("rank", std::to_string(*result.rank));
  if (result.world_size) sink.set_meta("world_size", std::to_string(*result.world_size));
  if (!header.saw_distributed_info) {
    sink.count(StatId::import_kineto_no_distributed_info, trace::Severity::info, 1,
               "no distributedInfo: rank and world size unknown (single-process trace?)");
  } else if (!result.rank) {
    sink.count(StatId::import_kineto_no_rank, trace::Severity::warning, 1, "distributedInfo without a valid rank");
  }
}

}  // namespace

ImportResult import_kineto(const std::string& input, ImportSink& sink,
                           const std::function<void(std::int64_t)>& on_file_bytes) {
  // Adding the base while converting spares a second pass over the written rows.
  const std::int64_t guessed_base = guess_kineto_base_time(input).value_or(0);
  KinetoConverter converter(sink, guessed_base);
  const KinetoHeader header = read_kineto(input, converter, nullptr, GzipFile::kDefaultBufferBytes, on_file_bytes);
  converter.finish();
  ImportResult result;
  write_meta(header, sink, result);
  for (const auto& device : header.devices) sink.add(device);
  std::int64_t base = 0;
  if (header.base_time_ns) {
    // Newer Kineto writes timestamps relative to this base to keep them short.
    const auto parsed = integer_from_text(*header.base_time_ns);
    if (!parsed) throw TraceError::bad_input(input, "has an invalid baseTimeNanoseconds: " + *header.base_time_ns);
    base = *parsed;
  }
  // Zero when the guess was right; otherwise the rows are shifted by the rest after writing.
  if (__builtin_sub_overflow(base, guessed_base, &result.time_offset_ns)) {
    throw TraceError::bad_input(input, "has a baseTimeNanoseconds (" + std::to_string(base) +
                                           ") too far from the one its last bytes give (" +
                                           std::to_string(guessed_base) + ")");
  }
  return result;
}

}  // namespace gpuprof::importers
