#include "gpuprof/job/step_kernels.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "gpuprof/analysis/kernel_names.hpp"
#include "gpuprof/job/step_basis.hpp"

namespace gpuprof::job {
namespace {

using WindowKey = std::pair<std::int32_t, std::int64_t>;  // (device, start)

bool before(const WindowKey& key, const WindowSample& window) { return key < WindowKey{window.device, window.start_ns}; }

// The basis window of `device` holding `time`, or nullptr, from `after`: the first window past (device, time).
const WindowSample* basis_window(const std::vector<WindowSample>& windows, const std::vector<bool>& basis,
                                 std::vector<WindowSample>::const_iterator after, std::int32_t device,
                                 std::int64_t time) {
  if (after == windows.begin()) return nullptr;
  --after;
  const auto index = static_cast<std::size_t>(after - windows.begin());
  return after->device == device && time < after->end_ns && basis[index] ? &*after : nullptr;
}

// Kernel time and instances per name id of the kernels whose start falls in a basis window. Windows come
// sorted by (device, start) and a stream's kernels by start, so the first window past each kernel moves
// forward through a stream instead of being searched for per kernel; a kernel that starts before the one
// before it (or windows out of order) is searched for.
class WindowTotals {
 public:
  WindowTotals(const trace::TraceModel& model, const std::vector<WindowSample>& windows, const std::vector<bool>& basis)
      : dense_(model.strings.size()) {
    const bool sorted = std::is_sorted(windows.begin(), windows.end(), [](const auto& a, const auto& b) {
      return WindowKey{a.device, a.start_ns} < WindowKey{b.device, b.start_ns};
    });
    const auto& kernels = model.kernels;
    for (const auto& slice : model.kernel_streams) {
      const WindowKey first{slice.device, std::numeric_limits<std::int64_t>::min()};
      auto after = std::upper_bound(windows.begin(), windows.end(), first, before);
      std::int64_t last = first.second;
      for (std::size_t row = slice.begin; row < slice.end; ++row) {
        const WindowKey key{slice.device, kernels.start_ns[row]};
        if (!sorted || key.second < last) {
          after = std::upper_bound(windows.begin(), windows.end(), key, before);
        } else {
          while (after != windows.end() && !before(key, *after)) ++after;
        }
        last = key.second;
        if (basis_window(windows, basis, after, key.first, key.second) != nullptr) {
          add(kernels.name[row], kernels.end_ns[row] - kernels.start_ns[row]);
        }
      }
    }
  }

  // `visit(id, (total, instances))` for each name id with kernels, ascending.
  template <typename Visit>
  void for_each(Visit&& visit) const {
    for (std::size_t id = 0; id < dense_.size(); ++id) {
      if (dense_[id].second > 0) visit(static_cast<trace::StringId>(id), dense_[id]);
    }
    for (const auto& [id, totals] : past_strings_) visit(id, totals);
  }

 private:
  void add(trace::StringId name, std::int64_t duration) {
    auto& entry = name < dense_.size() ? dense_[name] : past_strings_[name];
    entry.first += duration;
    ++entry.second;
  }

  std::vector<std::pair<std::int64_t, std::int64_t>> dense_;                // (total, instances) per name id
  std::map<trace::StringId, std::pair<std::int64_t, std::int64_t>> past_strings_;  // ids a hostile file has
};

}  // namespace

StepKernels step_kernels(const trace::TraceModel& model, const std::vector<analysis::KernelCategory>& categories,
                         const std::vector<WindowSample>& windows) {
  StepKernels result;
  const auto basis = step_basis(windows);
  result.windows = std::count(basis.begin(), basis.end(), true);
  const WindowTotals by_name(model, windows, basis);
  std::map<std::string, StepKernel> merged;  // several ids can read the same once demangled
  by_name.for_each([&](trace::StringId id, const std::pair<std::int64_t, std::int64_t>& totals) {
    const auto raw = model.string(id);
    auto& kernel = merged[analysis::readable_kernel_name(raw)];
    const bool comm = id < categories.size() && categories[id] == analysis::KernelCategory::communication;
    kernel.short_name = analysis::short_kernel_name(raw);
    kernel.category = std::string(analysis::to_string(comm ? analysis::KernelCategory::communication
                                                           : analysis::KernelCategory::computation));
    kernel.total_ns += totals.first;
    kernel.instances += totals.second;
  });
  for (auto& [name, kernel] : merged) {
    kernel.name = name;
    result.kernels.push_back(std::move(kernel));
  }
  return result;
}

}  // namespace gpuprof::job
