#include "gpuprof/analysis/kernel_launches.hpp"

namespace gpuprof::analysis {

KernelLaunches::KernelLaunches(const trace::TraceModel& model, const CorrelationIndex& correlations)
    : model_(model), correlations_(correlations), graph_launches_(model), kept_(model.kernels.size(), kNoCall) {
  for (std::size_t row = 0; row < kept_.size(); ++row) {
    const auto launch = kernel_launch(model, correlations, graph_launches_, row);
    if (launch.status == LaunchStatus::counted) {
      const auto latency = static_cast<std::uint64_t>(launch.latency_ns);  // never negative when counted
      if (latency < kFoundAgain) {
        kept_[row] = static_cast<std::uint32_t>(latency);
      } else if (latency >> 32 != 0 && latency >> 40 == 0) {
        if (high_.empty()) high_.assign(kept_.size(), 0);
        kept_[row] = static_cast<std::uint32_t>(latency), high_[row] = static_cast<std::uint8_t>(latency >> 32);
      } else {
        kept_[row] = kFoundAgain, found_again_ = true;
      }
    } else if (launch.status != LaunchStatus::no_call) {
      kept_[row] = kNotCounted;
    }
  }
}

}  // namespace gpuprof::analysis
