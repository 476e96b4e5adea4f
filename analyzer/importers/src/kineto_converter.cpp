#include "kineto_converter.hpp"

#include <cctype>
#include <string_view>

#include "cuda_enums.hpp"
#include "kineto_args.hpp"
#include "kineto_collective.hpp"
#include "kineto_memory.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

using trace::CopyKind;
using trace::MemoryKind;

enum class Category { kernel, memcpy, memset, runtime, driver, sync, cpu_op, user_annotation, gpu_annotation,
                      python_function, skipped, unknown };

// Current names and the 2021 names (Kernel, Memcpy, Runtime, Operator) side by side.
Category categorize(std::string_view category) {
  if (category == "kernel" || category == "Kernel") return Category::kernel;
  if (category == "gpu_memcpy" || category == "Memcpy") return Category::memcpy;
  if (category == "gpu_memset" || category == "Memset") return Category::memset;
  if (category == "cuda_runtime" || category == "Runtime") return Category::runtime;
  if (category == "cuda_driver" || category == "Driver") return Category::driver;
  if (category == "cuda_sync") return Category::sync;
  if (category == "cpu_op" || category == "Operator") return Category::cpu_op;
  if (category == "user_annotation") return Category::user_annotation;
  if (category == "gpu_user_annotation") return Category::gpu_annotation;
  // Python frames (with_stack=True) are host ranges like the operators: idle under them is the host's doing.
  if (category == "python_function") return Category::python_function;
  // Flow arrows (correlation is already in args; gpuprof_collective joins a job's collectives across
  // ranks), the profiler's own span.
  if (category == "ac2g" || category == "gpuprof_collective" || category == "async" || category == "fwdbwd" || category == "Trace" ||
      category == "cpu_instant_event" || category == "overhead") {
    return Category::skipped;
  }
  return Category::unknown;
}

std::optional<std::int32_t> arg_int32(const KinetoEvent& event, std::string_view key) {
  const auto value = arg_number(event, key);
  if (!value) return std::nullopt;
  return static_cast<std::int32_t>(*value);
}

std::optional<trace::Dim3> arg_dim3(const KinetoEvent& event, std::string_view key) {
  const KinetoArg* arg = event.arg(key);
  if (arg == nullptr || arg->items.size() != 3) return std::nullopt;
  trace::Dim3 dims;
  std::int32_t* parts[] = {&dims.x, &dims.y, &dims.z};
  for (std::size_t i = 0; i < 3; ++i) {
    const auto value = integer_from_text(arg->items[i]);
    if (!value) return std::nullopt;
    *parts[i] = static_cast<std::int32_t>(*value);
  }
  return dims;
}

// The 2021 format wrote "external id", the current one "correlation" next to "External id".
std::optional<std::int64_t> correlation_of(const KinetoEvent& event) { return arg_number(event, "correlation"); }

std::optional<std::int32_t> device_of(const KinetoEvent& event) {
  if (auto device = arg_int32(event, "device")) return device;
  const auto pid = number_in(event.pid);
  if (!pid) return std::nullopt;
  return static_cast<std::int32_t>(*pid);
}

std::optional<std::int64_t> stream_of(const KinetoEvent& event) {
  if (auto stream = arg_number(event, "stream")) return stream;
  return number_in(event.tid);
}

std::optional<CopyKind> copy_kind_from_name(std::string_view name) {
  // "Memcpy HtoD (Pageable -> Device)": the direction is the word after "Memcpy ".
  const auto space = name.find(' ');
  if (space == std::string_view::npos) return std::nullopt;
  std::string_view word = name.substr(space + 1);
  word = word.substr(0, word.find(' '));
  if (auto kind = trace::copy_kind_from_string(word)) return kind;
  if (word == "HtoA" || word == "AtoD" || word == "DtoA" || word == "AtoA") {
    return word.starts_with('H') ? CopyKind::host_to_device : CopyKind::device_to_device;
  }
  if (word == "AtoH") return CopyKind::device_to_host;
  return std::nullopt;
}

std::optional<MemoryKind> memory_kind_from_word(std::string_view word) {
  if (word == "Pageable") return MemoryKind::pageable;
  if (word == "Pinned") return MemoryKind::pinned;
  if (word == "Device") return MemoryKind::device;
  if (word == "Managed") return MemoryKind::managed;
  if (word == "Array") return MemoryKind::array;
  return std::nullopt;  // "Host" (ROCm) and "Unknown" say nothing definite
}

// "(Pageable -> Device)" → {pageable, device}.
std::pair<std::optional<MemoryKind>, std::optional<MemoryKind>> memory_kinds_from_name(std::string_view name) {
  const auto open = name.find('(');
  const auto arrow = name.find(" -> ", open == std::string_view::npos ? 0 : open);
  const auto close = name.find(')', arrow == std::string_view::npos ? 0 : arrow);
  if (open == std::string_view::npos || arrow == std::string_view::npos || close == std::string_view::npos) {
    return {};
  }
  return {memory_kind_from_word(name.substr(open + 1, arrow - open - 1)),
          memory_kind_from_word(name.substr(arrow + 4, close - arrow - 4))};
}

trace::SyncType sync_type_from_text(std::string_view text) {
  if (text.find("Wait") != std::string_view::npos) return trace::SyncType::stream_wait_event;
  if (text.find("Event") != std::string_view::npos) return trace::SyncType::event;
  if (text.find("Stream") != std::string_view::npos) return trace::SyncType::stream;
  if (text.find("Context") != std::string_view::npos) return trace::SyncType::context;
  if (text.find("Device") != std::string_view::npos) return trace::SyncType::device;
  return trace::SyncType::unknown;
}

}  // namespace

KinetoConverter::KinetoConverter(ImportSink& sink, std::int64_t base_ns)
    : sink_(sink),
      base_ns_(base_ns),
      cpu_op_domain_(sink.intern("cpu_op")),
      user_annotation_domain_(sink.intern("user_annotation")),
      gpu_annotation_domain_(sink.intern("gpu_user_annotation")) {}

void KinetoConverter::malformed_element() {
  sink_.count({StatId::import_malformed, "not_an_object"}, trace::Severity::warning, 1,
              "traceEvents elements that are not JSON objects");
}

void KinetoConverter::malformed(const KinetoEvent& event, const char* why) {
  sink_.count({StatId::import_malformed, event.cat.empty() ? std::string("no_category") : event.cat},
              trace::Severity::warning, 1, why);
}

std::optional<KinetoConverter::Span> KinetoConverter::span_of(const KinetoEvent& event) {
  if (!event.ts.present || event.ts.is_string || !event.dur.present || event.dur.is_string) return std::nullopt;
  const auto start = microseconds_text_to_ns(event.ts.text);
  const auto duration = microseconds_text_to_ns(event.dur.text);
  if (!start || !duration || *duration < 0) return std::nullopt;
  Span span;
  if (__builtin_add_overflow(*start, base_ns_, &span.start_ns) ||
      __builtin_add_overflow(span.start_ns, *duration, &span.end_ns)) {
    return std::nullopt;  // past the int64 range: counted as an event without a valid time
  }
  return span;
}

std::optional<std::int64_t> KinetoConverter::instant_time(const KinetoEvent& event) {
  if (!event.ts.present || event.ts.is_string) return std::nullopt;
  const auto time = microseconds_text_to_ns(event.ts.text);
  std::int64_t time_ns = 0;
  if (!time || __builtin_add_overflow(*time, base_ns_, &time_ns)) return std::nullopt;
  return time_ns;
}

void KinetoConverter::add_memory(const KinetoEvent& event) {
  const auto time_ns = event.ph == "i" || event.ph == "I" ? instant_time(event) : std::nullopt;
  if (!time_ns) {
    sink_.count({StatId::import_kineto_memory_bad_event, "ts"}, trace::Severity::warning, 1,
                "[memory] events that are not instant ('i') events with a valid ts, left out");
    return;
  }
  add_memory_event(event, *time_ns, sink_);
}

void KinetoConverter::consume(const KinetoEvent& event) {
  // Allocator events: without a category in 2021 traces, cpu_instant_event since.
  if (event.name == kKinetoMemoryEventName) return add_memory(event);
  if (event.ph == "C") {
    // Counters (gpuprof's batch-gap counter, memory counters) carry values, not activity.
    sink_.count({StatId::import_skipped, "counter"}, trace::Severity::info);
    return;
  }
  if (event.cat.empty()) {
    // Metadata (process and thread names) and global instants carry no activity.
    const std::string kind = event.ph == "M" ? "metadata" : event.ph == "i" || event.ph == "I" ? "instant" : "";
    if (!kind.empty()) {
      sink_.count({StatId::import_skipped, kind}, trace::Severity::info);
    } else {
      malformed(event, "events without a category");
    }
    return;
  }
  const Category category = categorize(event.cat);
  if (category == Category::skipped) {
    sink_.count({StatId::import_skipped, event.cat}, trace::Severity::info);
    return;
  }
  if (category == Category::unknown) {
    sink_.count({StatId::import_unknown_category, event.cat}, trace::Severity::warning, 1,
                "events of a Kineto category gpuprof does not import");
    return;
  }
  if (event.ph != "X") {
    malformed(event, "events of a duration category that are not complete ('X') events");
    return;
  }
  const auto span = span_of(event);
  if (!span) {
    malformed(event, "events without a valid ts and non-negative dur");
    return;
  }
  switch (category) {
    case Category::kernel: return add_kernel(event, *span);
    case Category::memcpy: return add_memcpy(event, *span);
    case Category::memset: return add_memset(event, *span);
    case Category::runtime: return add_api_call(event, *span, trace::ApiKind::runtime);
    case Category::driver: return add_api_call(event, *span, trace::ApiKind::driver);
    case Category::sync: return add_sync(event, *span);
    case Category::cpu_op: return add_range(event, *span, cpu_op_domain_, false);
    case Category::user_annotation: return add_range(event, *span, user_annotation_domain_, false);
    case Category::gpu_annotation: return add_range(event, *span, gpu_annotation_domain_, true);
    case Category::python_function:
      if (!python_function_domain_) python_function_domain_ = sink_.intern("python_function");
      return add_range(event, *span, *python_function_domain_, false);
    default: return;
  }
}

namespace {

// The columns every GPU activity event has; nullopt when the event names no device.
template <typename Row>
std::optional<Row> gpu_row(const KinetoEvent& event, std::int64_t start_ns, std::int64_t end_ns) {
  const auto device = device_of(event);
  if (!device) return std::nullopt;
  Row row;
  row.device = *device;
  row.context = arg_number(event, "context");
  row.stream = stream_of(event);
  row.start_ns = start_ns;
  row.end_ns = end_ns;
  row.correlation_id = correlation_of(event);
  return row;
}

}  // namespace

void KinetoConverter::add_kernel(const KinetoEvent& event, Span span) {
  auto gpu = gpu_row<trace::KernelRow>(event, span.start_ns, span.end_ns);
  if (!gpu) return malformed(event, "GPU events without a device (args.device or numeric pid)");
  trace::KernelRow& row = *gpu;
  const auto name = sink_.intern_kernel_name(event.name);
  row.name = name.name;
  row.mangled_name = name.mangled;
  row.grid = arg_dim3(event, "grid");
  row.block = arg_dim3(event, "block");
  row.registers_per_thread = arg_int32(event, "registers per thread");
  // Kineto's "shared memory" is static plus dynamic; the schema keeps them apart, so both stay unknown.
  sink_.add(row);
  if (event.arg("Collective name") != nullptr) {
    add_collective(event, row, sink_);
  } else if (row.correlation_id) {
    comm_shapes_.kernel(event.name, row.device, *row.correlation_id);
  }
}

void KinetoConverter::add_memcpy(const KinetoEvent& event, Span span) {
  auto gpu = gpu_row<trace::MemcpyRow>(event, span.start_ns, span.end_ns);
  if (!gpu) return malformed(event, "GPU events without a device (args.device or numeric pid)");
  trace::MemcpyRow& row = *gpu;
  const KinetoArg* kind_arg = event.arg("kind");
  std::optional<CopyKind> kind;
  if (kind_arg != nullptr && kind_arg->value.is_string) kind = trace::copy_kind_from_string(kind_arg->value.text);
  if (!kind) kind = copy_kind_from_name(event.name);
  row.copy_kind = kind.value_or(CopyKind::unknown);
  if (!kind) sink_.count(StatId::import_kineto_unknown_copy_kind, trace::Severity::warning, 1, "copies whose direction "
                         "neither args nor the event name give");
  const auto [source_kind, destination_kind] = memory_kinds_from_name(event.name);
  row.src_memory_kind = source_kind;
  row.dst_memory_kind = destination_kind;
  if (row.copy_kind == CopyKind::peer_to_peer) {
    row.src_device = arg_int32(event, "fromDevice");
    row.dst_device = arg_int32(event, "toDevice");
  } else {
    const CopyEnds ends = copy_ends(row.copy_kind);
    if (ends.source_on_device) row.src_device = row.device;
    if (ends.destination_on_device) row.dst_device = row.device;
  }
  row.bytes = arg_number(event, "bytes");
  sink_.add(row);
}

void KinetoConverter::add_memset(const KinetoEvent& event, Span span) {
  auto gpu = gpu_row<trace::MemsetRow>(event, span.start_ns, span.end_ns);
  if (!gpu) return malformed(event, "GPU events without a device (args.device or numeric pid)");
  trace::MemsetRow& row = *gpu;
  row.bytes = arg_number(event, "bytes");
  sink_.add(row);
}

namespace {

// Kineto writes "INVALID" for a callback id its table has no name for (cbid 409 with CUDA 12): that is no API
// of that name, so the call is listed by its id.
std::string unnamed_call(const KinetoEvent& event) {
  const auto cbid = arg_number(event, "cbid");
  return cbid ? "unnamed call (cbid " + std::to_string(*cbid) + ")" : std::string("unnamed call");
}

}  // namespace

void KinetoConverter::add_api_call(const KinetoEvent& event, Span span, trace::ApiKind kind) {
  trace::ApiCallRow row;
  row.process_id = number_in(event.pid);
  row.thread_id = number_in(event.tid);
  row.start_ns = span.start_ns;
  row.end_ns = span.end_ns;
  row.correlation_id = correlation_of(event);
  row.name = event.name == "INVALID" ? sink_.intern(unnamed_call(event)) : sink_.intern(event.name);
  row.kind = kind;
  row.return_code = arg_number(event, "return code");
  sink_.add(row);
  if (row.thread_id && row.correlation_id)
    comm_shapes_.launch(event.name, *row.thread_id, row.start_ns, *row.correlation_id);
}

void KinetoConverter::add_sync(const KinetoEvent& event, Span span) {
  trace::SyncRow row;
  row.process_id = number_in(event.pid);
  row.thread_id = number_in(event.tid);
  row.start_ns = span.start_ns;
  row.end_ns = span.end_ns;
  const KinetoArg* kind = event.arg("cuda_sync_kind");
  row.type = sync_type_from_text(kind != nullptr ? std::string_view(kind->value.text) : std::string_view(event.name));
  row.device = arg_int32(event, "device");
  if (const auto stream = arg_number(event, "stream")) row.stream = unless_unset(*stream);
  if (const auto event_id = arg_number(event, "event")) row.event = unless_unset(*event_id);
  row.correlation_id = correlation_of(event);
  sink_.add(row);
}

void KinetoConverter::add_range(const KinetoEvent& event, Span span, trace::StringId domain, bool on_gpu) {
  trace::RangeRow row;
  row.start_ns = span.start_ns;
  row.end_ns = span.end_ns;
  row.name = sink_.intern(event.name);
  // An NVTX domain travels in args (gpuprof's exporter writes it); otherwise the Kineto category names it.
  const KinetoArg* domain_arg = event.arg("domain");
  row.domain = domain_arg != nullptr && domain_arg->value.is_string ? sink_.intern(domain_arg->value.text) : domain;
  row.category = arg_number(event, "category");
  row.on_gpu = on_gpu;
  if (on_gpu) {
    row.device = device_of(event);
    row.stream = stream_of(event);
  } else {
    row.process_id = number_in(event.pid);
    row.thread_id = number_in(event.tid);
    if (row.thread_id) comm_shapes_.annotation(event, *row.thread_id, row.start_ns, row.end_ns, sink_);
    gradient_shapes_.range(event, row.start_ns, row.end_ns, sink_);
  }
  row.correlation_id = correlation_of(event);
  sink_.add(row);
}

void KinetoConverter::finish() {
  comm_shapes_.finish(sink_);
  gradient_shapes_.finish(sink_);
}

}  // namespace gpuprof::importers
