#include "gpuprof/analysis/kernel_launches.hpp"

namespace gpuprof::analysis {

KernelLaunches::KernelLaunches(const trace::TraceModel& model, const CorrelationIndex& correlations)
    : model_(model), correlations_(correlations), graph_launches_(model), kept_(model.kernels.size(), kNoCall) {
  for (std::size_t row = 0; row < kept_.size(); ++row) {
    const auto launch = kernel_launch(model, correlations, graph_launches_, row);
    if (launch.status == LaunchStatus::counted) {
      kept_[row] = launch.latency_ns < kFoundAgain ? static_cast<std::uint32_t>(launch.latency_ns) : kFoundAgain;
    } else if (launch.status != LaunchStatus::no_call) {
      kept_[row] = kNotCounted;
    }
  }
}

}  // namespace gpuprof::analysis
