#include "gpuprof/job/step_kernels.hpp"

#include <algorithm>
#include <map>

#include "gpuprof/analysis/kernel_names.hpp"
#include "gpuprof/job/step_basis.hpp"

namespace gpuprof::job {
namespace {

// The basis window of `device` holding `time`, or nullptr.
const WindowSample* basis_window(const std::vector<WindowSample>& windows, const std::vector<bool>& basis,
                                 std::int32_t device, std::int64_t time) {
  auto it = std::upper_bound(windows.begin(), windows.end(), std::pair{device, time},
                             [](const std::pair<std::int32_t, std::int64_t>& key, const WindowSample& window) {
                               return key < std::pair{window.device, window.start_ns};
                             });
  if (it == windows.begin()) return nullptr;
  --it;
  const auto index = static_cast<std::size_t>(it - windows.begin());
  return it->device == device && time < it->end_ns && basis[index] ? &*it : nullptr;
}

}  // namespace

StepKernels step_kernels(const trace::TraceModel& model, const std::vector<analysis::KernelCategory>& categories,
                         const std::vector<WindowSample>& windows) {
  StepKernels result;
  const auto basis = step_basis(windows);
  result.windows = std::count(basis.begin(), basis.end(), true);
  std::map<trace::StringId, std::pair<std::int64_t, std::int64_t>> by_name;  // (total, instances)
  const auto& kernels = model.kernels;
  for (std::size_t row = 0; row < kernels.size(); ++row) {
    if (basis_window(windows, basis, kernels.device[row], kernels.start_ns[row]) == nullptr) continue;
    auto& entry = by_name[kernels.name[row]];
    entry.first += kernels.end_ns[row] - kernels.start_ns[row];
    ++entry.second;
  }
  std::map<std::string, StepKernel> merged;  // several ids can read the same once demangled
  for (const auto& [id, totals] : by_name) {
    const auto raw = model.string(id);
    auto& kernel = merged[analysis::readable_kernel_name(raw)];
    const bool comm = id < categories.size() && categories[id] == analysis::KernelCategory::communication;
    kernel.short_name = analysis::short_kernel_name(raw);
    kernel.category = std::string(analysis::to_string(comm ? analysis::KernelCategory::communication
                                                           : analysis::KernelCategory::computation));
    kernel.total_ns += totals.first;
    kernel.instances += totals.second;
  }
  for (auto& [name, kernel] : merged) {
    kernel.name = name;
    result.kernels.push_back(std::move(kernel));
  }
  return result;
}

}  // namespace gpuprof::job
