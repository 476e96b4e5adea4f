#include "kineto_gradient_shapes.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "kineto_comm_shapes.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

constexpr std::string_view kAccumulateGrad = "torch::autograd::AccumulateGrad";

// Bytes of the shaped inputs; nullopt when a shape or a type cannot be read (or there is none).
std::optional<std::int64_t> shaped_bytes(const KinetoEvent& event) {
  const KinetoArg* dims = event.arg("Input Dims");
  const KinetoArg* types = event.arg("Input type");
  if (dims == nullptr || types == nullptr) return std::nullopt;
  std::int64_t total = 0;
  bool any = false;
  for (std::size_t i = 0; i < dims->nested.size(); ++i) {
    if (dims->nested[i].empty()) continue;
    const auto size = i < types->items.size() ? input_type_bytes(types->items[i]) : std::nullopt;
    if (!size) return std::nullopt;
    std::int64_t bytes = *size;
    for (const auto& text : dims->nested[i]) {
      const auto dim = integer_from_text(text);
      if (!dim || *dim < 0 || __builtin_mul_overflow(bytes, *dim, &bytes)) return std::nullopt;
    }
    if (__builtin_add_overflow(total, bytes, &total)) return std::nullopt;
    any = true;
  }
  return any ? std::optional(total) : std::nullopt;
}

}  // namespace

void GradientShapes::range(const KinetoEvent& event, std::int64_t start_ns, std::int64_t end_ns, ImportSink& sink) {
  if (event.name.starts_with("ProfilerStep#")) {
    steps_.push_back({start_ns, end_ns});
  } else if (event.name == kAccumulateGrad && event.arg("Input Dims") != nullptr) {
    if (const auto bytes = shaped_bytes(event)) {
      gradients_.push_back({start_ns, *bytes});
    } else {
      sink.count(StatId::import_kineto_gradient_shape_unreadable, trace::Severity::info, 1,
                 "AccumulateGrad ops whose Input Dims or Input type give no size (left out of gradient_bytes)");
    }
  }
}

void GradientShapes::finish(ImportSink& sink) {
  if (gradients_.empty() || steps_.empty()) return;
  std::sort(steps_.begin(), steps_.end(), [](const auto& a, const auto& b) { return a.start_ns < b.start_ns; });
  std::vector<std::int64_t> sums(steps_.size(), 0), counts(steps_.size(), 0);
  for (const auto& gradient : gradients_) {
    auto after = std::upper_bound(steps_.begin(), steps_.end(), gradient.start_ns,
                                  [](std::int64_t t, const Step& step) { return t < step.start_ns; });
    if (after == steps_.begin()) continue;
    const auto step = static_cast<std::size_t>(after - steps_.begin() - 1);
    if (gradient.start_ns > steps_[step].end_ns) continue;  // between steps
    if (__builtin_add_overflow(sums[step], gradient.bytes, &sums[step])) return;
    ++counts[step];
  }
  std::map<std::pair<std::int64_t, std::int64_t>, std::int64_t> votes;  // (bytes, tensors) -> steps
  for (std::size_t s = 0; s < steps_.size(); ++s)
    if (counts[s] > 0) ++votes[{sums[s], counts[s]}];
  if (votes.empty()) return;
  const auto best = std::max_element(votes.begin(), votes.end(),
                                     [](const auto& a, const auto& b) { return a.second < b.second; });
  std::int64_t with_gradients = 0;
  for (const auto& [key, steps] : votes) with_gradients += steps;
  sink.set_meta("gradient_bytes", std::to_string(best->first.first));
  sink.set_meta("gradient_bytes_source", "Kineto AccumulateGrad input shapes: " +
                                             std::to_string(best->first.second) + " tensors per step, " +
                                             std::to_string(best->second) + " of " + std::to_string(with_gradients) +
                                             " steps with gradients agree");
}

}  // namespace gpuprof::importers
