#include "kineto_comm_shapes.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "kineto_collective.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

constexpr std::string_view kNcclPrefix = "nccl:";

// C++ names PyTorch's profiler writes for a tensor's scalar type (c10::toString of its C++ type).
constexpr std::array<std::pair<std::string_view, std::int64_t>, 14> kCppTypes = {{
    {"float", 4},         {"double", 8},     {"c10::Half", 2},     {"c10::BFloat16", 2}, {"long int", 8},
    {"long", 8},          {"int", 4},        {"short int", 2},     {"short", 2},         {"signed char", 1},
    {"unsigned char", 1}, {"bool", 1},       {"c10::complex<float>", 8}, {"c10::complex<double>", 16},
}};

// Elements of one shape, nullopt when a dimension is not a non-negative integer or the product overflows.
std::optional<std::int64_t> elements_of(const std::vector<std::string>& dims) {
  std::int64_t product = 1;
  for (const auto& text : dims) {
    const auto dim = integer_from_text(text);
    if (!dim || *dim < 0 || __builtin_mul_overflow(product, *dim, &product)) return std::nullopt;
  }
  return product;
}

}  // namespace

std::optional<std::int64_t> input_type_bytes(std::string_view type) {
  for (const auto& [name, bytes] : kCppTypes)
    if (name == type) return bytes;
  return scalar_type_bytes(type);  // some versions write c10's ScalarType names
}

void CommShapeLinker::annotation(const KinetoEvent& event, std::int64_t thread, std::int64_t start_ns,
                                 std::int64_t end_ns, ImportSink& sink) {
  if (!event.name.starts_with(kNcclPrefix)) return;
  const KinetoArg* dims = event.arg("Input Dims");
  const KinetoArg* types = event.arg("Input type");
  if (dims == nullptr || types == nullptr || dims->nested.empty()) return;
  // The tensors the collective was called with: every input with a shape must have a known type.
  std::int64_t elements = 0, bytes = 0;
  std::string dtype;
  for (std::size_t i = 0; i < dims->nested.size(); ++i) {
    if (dims->nested[i].empty()) continue;  // a scalar argument
    const auto count = elements_of(dims->nested[i]);
    const auto size = i < types->items.size() ? input_type_bytes(types->items[i]) : std::nullopt;
    std::int64_t input_bytes = 0;
    if (!count || !size || __builtin_mul_overflow(*count, *size, &input_bytes) ||
        __builtin_add_overflow(bytes, input_bytes, &bytes) || __builtin_add_overflow(elements, *count, &elements)) {
      sink.count(StatId::import_kineto_collective_shape_unreadable, trace::Severity::warning, 1,
                 "nccl annotations whose Input Dims or Input type give no size (left unsized)");
      return;
    }
    if (dtype.empty()) dtype = types->items[i];
  }
  if (bytes == 0) return;
  annotations_[thread].push_back({start_ns, end_ns, event.name.substr(kNcclPrefix.size()), dtype, elements, bytes});
}

void CommShapeLinker::launch(std::string_view name, std::int64_t thread, std::int64_t start_ns,
                             std::int64_t correlation) {
  if (name.find("Launch") != std::string_view::npos) launches_[correlation] = {thread, start_ns};
}

void CommShapeLinker::kernel(std::string_view name, std::int32_t device, std::int64_t correlation) {
  if (name.starts_with("nccl")) kernels_.emplace_back(device, correlation);
}

const CommShapeLinker::Annotation* CommShapeLinker::innermost(std::int64_t thread, std::int64_t time_ns) const {
  const auto found = annotations_.find(thread);
  if (found == annotations_.end()) return nullptr;
  const auto& spans = found->second;
  // The latest start at or before the time is the innermost that can hold it; c10d's annotations do not nest
  // deeply, so a few earlier ones are enough to look at (bounded, whatever a file holds).
  auto it = std::upper_bound(spans.begin(), spans.end(), time_ns,
                             [](std::int64_t t, const Annotation& a) { return t < a.start_ns; });
  for (int checked = 0; it != spans.begin() && checked < 8; ++checked) {
    --it;
    if (time_ns <= it->end_ns) return &*it;
  }
  return nullptr;
}

void CommShapeLinker::finish(ImportSink& sink) {
  if (annotations_.empty()) return;  // nothing to link: the kernels carry their args, or no sizes were recorded
  for (auto& [thread, spans] : annotations_)
    std::sort(spans.begin(), spans.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  for (const auto& [device, correlation] : kernels_) {
    const auto launch = launches_.find(correlation);
    const Annotation* annotation =
        launch == launches_.end() ? nullptr : innermost(launch->second.thread, launch->second.start_ns);
    if (annotation == nullptr) {
      sink.count(StatId::import_kineto_collective_kernel_unsized, trace::Severity::info, 1,
                 "NCCL kernels with no collective args and no sized nccl: annotation around their launch");
      continue;
    }
    trace::CollectiveRow row;
    row.device = device;
    row.correlation_id = correlation;
    row.name = sink.intern(annotation->name);
    row.in_elements = annotation->elements;
    row.in_bytes = annotation->bytes;
    row.dtype = sink.intern(annotation->dtype);
    sink.add(row);
  }
}

}  // namespace gpuprof::importers
