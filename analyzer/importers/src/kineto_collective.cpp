#include "kineto_collective.hpp"

#include <array>
#include <limits>
#include <string>
#include <utility>

#include "kineto_args.hpp"

namespace gpuprof::importers {
namespace {

// c10's ScalarType names (toString), which record_param_comms writes as "dtype".
constexpr std::array<std::pair<std::string_view, std::int64_t>, 24> kScalarTypes = {{
    {"Byte", 1},          {"Char", 1},           {"Short", 2},         {"Int", 4},
    {"Long", 8},          {"Half", 2},           {"Float", 4},         {"Double", 8},
    {"ComplexHalf", 4},   {"ComplexFloat", 8},   {"ComplexDouble", 16}, {"Bool", 1},
    {"QInt8", 1},         {"QUInt8", 1},         {"QInt32", 4},        {"BFloat16", 2},
    {"Float8_e5m2", 1},   {"Float8_e4m3fn", 1},  {"Float8_e5m2fnuz", 1}, {"Float8_e4m3fnuz", 1},
    {"UInt16", 2},        {"UInt32", 4},         {"UInt64", 8},        {"Float8_e8m0fnu", 1},
}};

constexpr const char* kBadValue = "collective args with a negative size or a group of fewer than one rank "
                                  "(stored as unknown)";

// A count the file may get wrong: negative values become unknown, and are counted.
std::optional<std::int64_t> count_arg(const KinetoEvent& event, std::string_view key, std::int64_t minimum,
                                      ImportSink& sink) {
  const auto value = arg_number(event, key);
  if (!value || *value >= minimum) return value;
  sink.count(StatId::import_kineto_collective_bad_value, trace::Severity::warning, 1, kBadValue);
  return std::nullopt;
}

std::optional<std::int64_t> times(std::optional<std::int64_t> elements, std::optional<std::int64_t> size) {
  if (!elements || !size) return std::nullopt;
  std::int64_t bytes = 0;
  if (__builtin_mul_overflow(*elements, *size, &bytes)) return std::nullopt;
  return bytes;
}

// A string arg, or a flat array written back as "[a, b]": group ranks come either way.
std::optional<trace::StringId> text_arg(const KinetoEvent& event, std::string_view key, ImportSink& sink) {
  const KinetoArg* arg = event.arg(key);
  if (arg == nullptr) return std::nullopt;
  if (arg->value.present) return sink.intern(arg->value.text);
  if (arg->items.empty()) return std::nullopt;  // an object or a nested array: nothing readable
  std::string joined = "[";
  for (const auto& item : arg->items) joined += (joined.size() > 1 ? ", " : "") + item;
  return sink.intern(joined + "]");
}

}  // namespace

std::optional<std::int64_t> scalar_type_bytes(std::string_view dtype) {
  for (const auto& [name, bytes] : kScalarTypes) {
    if (name == dtype) return bytes;
  }
  return std::nullopt;
}

void add_collective(const KinetoEvent& event, const trace::KernelRow& kernel, ImportSink& sink) {
  const KinetoArg* name = event.arg("Collective name");
  if (!kernel.correlation_id) {
    sink.count(StatId::import_kineto_collective_without_correlation, trace::Severity::warning, 1,
               "kernels with collective args but no correlation id to link them by (args left out)");
    return;
  }
  trace::CollectiveRow row;
  row.device = kernel.device;
  row.correlation_id = *kernel.correlation_id;
  row.name = sink.intern(name->value.text);
  row.in_elements = count_arg(event, "In msg nelems", 0, sink);
  row.out_elements = count_arg(event, "Out msg nelems", 0, sink);
  row.group_size = count_arg(event, "Group size", 1, sink);
  std::optional<std::int64_t> element_bytes;
  if (const KinetoArg* dtype = event.arg("dtype"); dtype != nullptr && dtype->value.present) {
    row.dtype = sink.intern(dtype->value.text);
    element_bytes = scalar_type_bytes(dtype->value.text);
    if (!element_bytes) {
      sink.count({StatId::import_kineto_collective_unknown_dtype, dtype->value.text}, trace::Severity::warning, 1,
                 "collectives whose dtype has no known element size (bytes stored as unknown)");
    }
  }
  row.in_bytes = times(row.in_elements, element_bytes);
  row.out_bytes = times(row.out_elements, element_bytes);
  row.process_group = text_arg(event, "Process Group Name", sink);
  row.group_description = text_arg(event, "Process Group Description", sink);
  row.group_ranks = text_arg(event, "Process Group Ranks", sink);
  sink.add(row);
}

}  // namespace gpuprof::importers
