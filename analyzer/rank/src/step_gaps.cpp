#include "gpuprof/rank/step_gaps.hpp"

#include <algorithm>
#include <compare>
#include <cstdint>
#include <numeric>

namespace gpuprof::analysis {
namespace {

struct WindowKey {
  std::int32_t device = 0;
  std::int64_t end_ns = 0, step = 0;
  auto operator<=>(const WindowKey&) const = default;
};

WindowKey key_of(const StepBreakdown& entry) { return {entry.step.device, entry.step.end_ns, entry.step.step}; }
WindowKey key_of(const BatchGap& gap) { return {gap.device, gap.end_ns, gap.after_step}; }

// Positions of `items` in key order: no sort when they already are (the analyzer's own lists), a stable one
// otherwise, so that alike keys keep their list order.
template <typename Item>
std::vector<std::size_t> in_key_order(const std::vector<Item>& items) {
  std::vector<std::size_t> order(items.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  const auto by_key = [&items](std::size_t a, std::size_t b) { return key_of(items[a]) < key_of(items[b]); };
  if (!std::is_sorted(order.begin(), order.end(), by_key)) std::stable_sort(order.begin(), order.end(), by_key);
  return order;
}

}  // namespace

std::vector<std::optional<std::size_t>> gap_of_each_step(const std::vector<StepBreakdown>& steps,
                                                         const std::vector<BatchGap>& gaps) {
  std::vector<std::optional<std::size_t>> found(steps.size());
  const auto gap_order = in_key_order(gaps);
  std::size_t next = 0;  // into gap_order: the first gap not yet passed
  for (const auto step : in_key_order(steps)) {
    const auto key = key_of(steps[step]);
    while (next < gap_order.size() && key_of(gaps[gap_order[next]]) < key) ++next;
    if (next < gap_order.size() && key_of(gaps[gap_order[next]]) == key) found[step] = gap_order[next++];
  }
  return found;
}

}  // namespace gpuprof::analysis
