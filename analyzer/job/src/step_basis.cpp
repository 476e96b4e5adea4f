#include "gpuprof/job/step_basis.hpp"

namespace gpuprof::job {
namespace {

// Windows [begin, end) of one device. The last step's window has no batch gap, so it is left out when others
// are there to average.
void mark_device(const std::vector<WindowSample>& windows, std::size_t begin, std::size_t end, std::vector<bool>& picked) {
  std::vector<std::size_t> followed, steady;
  for (std::size_t j = begin; j < end; ++j) {
    if (windows[j].warmup) continue;
    steady.push_back(j);
    if (j + 1 < end && windows[j].from_steps) followed.push_back(j);
  }
  if (!followed.empty()) {
    for (const auto j : followed) picked[j] = true;
  } else if (!steady.empty()) {
    for (const auto j : steady) picked[j] = true;
  } else {
    for (auto j = begin; j < end; ++j) picked[j] = true;
  }
}

}  // namespace

std::vector<bool> step_basis(const std::vector<WindowSample>& windows) {
  std::vector<bool> picked(windows.size(), false);
  for (std::size_t begin = 0; begin < windows.size();) {
    auto end = begin;
    while (end < windows.size() && windows[end].device == windows[begin].device) ++end;
    mark_device(windows, begin, end, picked);
    begin = end;
  }
  return picked;
}

}  // namespace gpuprof::job
