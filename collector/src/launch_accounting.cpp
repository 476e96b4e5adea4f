#include "gpuprof/collector/launch_accounting.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>

#include <algorithm>
#include <array>

namespace gpuprof::collector {
namespace {

template <std::size_t N>
bool contains(const std::array<std::uint32_t, N>& list, std::uint32_t callback_id) {
  return std::find(list.begin(), list.end(), callback_id) != list.end();
}

}  // namespace

bool LaunchAccounting::is_kernel_launch(trace::ApiKind kind, std::uint32_t callback_id) {
  static constexpr std::array<std::uint32_t, 10> runtime_launches = {
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_v3020,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunch_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_ptsz_v7000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchCooperativeKernel_ptsz_v9000,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_v11060,
      CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernelExC_ptsz_v11060,
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000,
      CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_ptsz_v13000,
  };
  if (kind == trace::ApiKind::runtime) return contains(runtime_launches, callback_id);
  const auto driver = driver_kernel_launches();
  return std::find(driver.begin(), driver.end(), callback_id) != driver.end();
}

std::span<const std::uint32_t> LaunchAccounting::driver_kernel_launches() {
  static constexpr std::array<std::uint32_t, 9> driver_launches = {
      CUPTI_DRIVER_TRACE_CBID_cuLaunch,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchGrid,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchGridAsync,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchCooperativeKernel_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx,
      CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx_ptsz,
  };
  return driver_launches;
}

bool LaunchAccounting::is_capture_begin(trace::ApiKind kind, std::uint32_t callback_id) {
  static constexpr std::array<std::uint32_t, 4> runtime_captures = {
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_ptsz_v10000,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_v12030,
      CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCaptureToGraph_ptsz_v12030,
  };
  static constexpr std::array<std::uint32_t, 6> driver_captures = {
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture,
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2,
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2_ptsz,
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph,
      CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCaptureToGraph_ptsz,
  };
  return kind == trace::ApiKind::runtime ? contains(runtime_captures, callback_id)
                                         : contains(driver_captures, callback_id);
}

void LaunchAccounting::api_returned(trace::ApiKind kind, std::uint32_t callback_id, std::uint32_t correlation_id,
                                    bool succeeded) {
  // A launch into a capturing stream succeeds without running anything: its
  // kernel record never comes, and that is no loss.
  if (is_capture_begin(kind, callback_id)) stream_captured_ = true;
  if (succeeded && is_kernel_launch(kind, callback_id)) launched(correlation_id);
}

void LaunchAccounting::launched(std::uint32_t correlation_id) {
  if (too_many_early_kernels_) return;
  any_launch_ = true;
  // A runtime launch and the driver launch inside it carry the same id: one kernel.
  if (recently_matched(correlation_id)) return;
  if (early_kernels_.erase(correlation_id) > 0) return matched(correlation_id);
  waiting_launches_.insert(correlation_id);
}

void LaunchAccounting::kernel_arrived(std::uint32_t correlation_id) {
  if (too_many_early_kernels_) return;
  if (waiting_launches_.erase(correlation_id) > 0) return matched(correlation_id);
  early_kernels_.insert(correlation_id);
  if (early_kernels_.size() > kMaxEarlyKernels) give_up();
}

void LaunchAccounting::give_up() {
  too_many_early_kernels_ = true;
  waiting_launches_.clear();
  early_kernels_.clear();
  matched_now_.clear();
  matched_before_.clear();
}

// Two generations, so a match is never forgotten right after it was made.
void LaunchAccounting::matched(std::uint32_t correlation_id) {
  if (matched_now_.size() >= kRecentlyMatchedGeneration) {
    matched_before_ = std::move(matched_now_);
    matched_now_.clear();
  }
  matched_now_.insert(correlation_id);
}

bool LaunchAccounting::recently_matched(std::uint32_t correlation_id) const {
  return matched_now_.contains(correlation_id) || matched_before_.contains(correlation_id);
}

std::optional<std::int64_t> LaunchAccounting::kernels_missing() const {
  if (!why_unchecked().empty()) return std::nullopt;
  return static_cast<std::int64_t>(waiting_launches_.size());
}

std::string LaunchAccounting::why_unchecked() const {
  const std::string not_counted = "; kernels lost at exit are not counted";
  if (too_many_early_kernels_) return "over a million kernel records had no launch API record" + not_counted;
  if (!any_launch_) return "no kernel launch API records (API tracing off)" + not_counted;
  if (stream_captured_) {
    return "streams were captured into CUDA graphs, and a captured launch never runs as launched" + not_counted;
  }
  if (records_dropped_) return "CUPTI dropped records, counted in dropped_records" + not_counted;
  return {};
}

}  // namespace gpuprof::collector
