#include "gpuprof/collector/launch_accounting.hpp"

#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <gtest/gtest.h>

namespace gpuprof::collector {
namespace {

using trace::ApiKind;

void launch(LaunchAccounting& accounting, std::uint32_t correlation_id) {
  accounting.api_returned(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, correlation_id, true);
}

TEST(LaunchAccounting, KnowsTheCallsThatLaunchOneKernel) {
  EXPECT_TRUE(LaunchAccounting::is_kernel_launch(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
  EXPECT_TRUE(LaunchAccounting::is_kernel_launch(ApiKind::runtime,
                                                 CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000));
  EXPECT_TRUE(LaunchAccounting::is_kernel_launch(ApiKind::driver, CUPTI_DRIVER_TRACE_CBID_cuLaunchKernelEx));
  // The same number means another call in the other domain.
  EXPECT_FALSE(LaunchAccounting::is_kernel_launch(ApiKind::driver, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000));
  EXPECT_FALSE(LaunchAccounting::is_kernel_launch(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000));
  EXPECT_FALSE(LaunchAccounting::is_kernel_launch(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020));
}

TEST(LaunchAccounting, CountsLaunchesWhoseKernelNeverArrived) {
  LaunchAccounting accounting;
  launch(accounting, 1);
  launch(accounting, 2);
  launch(accounting, 3);
  accounting.kernel_arrived(2);
  EXPECT_EQ(accounting.kernels_missing(), 2);
  EXPECT_TRUE(accounting.why_unchecked().empty());
}

TEST(LaunchAccounting, KernelRecordsMayComeBeforeTheirLaunchRecords) {
  LaunchAccounting accounting;
  accounting.kernel_arrived(5);
  accounting.kernel_arrived(6);
  launch(accounting, 5);
  launch(accounting, 6);
  EXPECT_EQ(accounting.kernels_missing(), 0);
}

// A runtime launch and the driver launch inside it share one correlation id.
TEST(LaunchAccounting, NestedRuntimeAndDriverLaunchesAreOneKernel) {
  LaunchAccounting launch_first;
  launch(launch_first, 7);
  launch(launch_first, 7);
  launch_first.kernel_arrived(7);
  EXPECT_EQ(launch_first.kernels_missing(), 0);

  LaunchAccounting kernel_first;
  kernel_first.kernel_arrived(8);
  launch(kernel_first, 8);  // driver record
  launch(kernel_first, 8);  // the runtime record around it
  EXPECT_EQ(kernel_first.kernels_missing(), 0);

  LaunchAccounting lost_pair;
  launch(lost_pair, 9);
  launch(lost_pair, 9);
  EXPECT_EQ(lost_pair.kernels_missing(), 1);
}

TEST(LaunchAccounting, FailedLaunchesAndOtherCallsExpectNoKernel) {
  LaunchAccounting accounting;
  accounting.api_returned(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000, 1, false);
  accounting.api_returned(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaMemcpy_v3020, 2, true);
  launch(accounting, 3);
  accounting.kernel_arrived(3);
  EXPECT_EQ(accounting.kernels_missing(), 0);
}

// Launches into a capturing stream succeed and never run as launched.
TEST(LaunchAccounting, StreamCaptureMakesTheCountUnknowable) {
  LaunchAccounting accounting;
  launch(accounting, 1);
  accounting.api_returned(ApiKind::runtime, CUPTI_RUNTIME_TRACE_CBID_cudaStreamBeginCapture_v10000, 2, true);
  launch(accounting, 3);
  EXPECT_EQ(accounting.kernels_missing(), std::nullopt);
  EXPECT_NE(accounting.why_unchecked().find("captured"), std::string::npos);
  EXPECT_TRUE(LaunchAccounting::is_capture_begin(ApiKind::driver, CUPTI_DRIVER_TRACE_CBID_cuStreamBeginCapture_v2));
}

// A kernel record CUPTI dropped would otherwise be counted a second time.
TEST(LaunchAccounting, RecordsDroppedByCuptiMakeTheCountUnknowable) {
  LaunchAccounting accounting;
  launch(accounting, 1);
  accounting.records_were_dropped();
  EXPECT_EQ(accounting.kernels_missing(), std::nullopt);
  EXPECT_NE(accounting.why_unchecked().find("dropped_records"), std::string::npos);
}

// The driver record of a pair may come long after its match; the last matches are always remembered.
TEST(LaunchAccounting, AMatchIsRememberedRightAfterTheRememberedSetFillsUp) {
  LaunchAccounting accounting;
  constexpr std::uint32_t kMatches = (1u << 16) * 2;
  for (std::uint32_t id = 1; id <= kMatches; ++id) {
    launch(accounting, id);
    accounting.kernel_arrived(id);
    launch(accounting, id == 1 ? id : id - 1);  // the nested record of the previous pair, one match late
  }
  EXPECT_EQ(accounting.kernels_missing(), 0);
}

TEST(LaunchAccounting, WithoutLaunchRecordsNothingCanBeSaid) {
  LaunchAccounting accounting;
  accounting.kernel_arrived(1);
  EXPECT_EQ(accounting.kernels_missing(), std::nullopt);
  EXPECT_NE(accounting.why_unchecked().find("API tracing off"), std::string::npos);
}

TEST(LaunchAccounting, GivesUpWhenKernelsKeepArrivingWithoutLaunches) {
  LaunchAccounting accounting;
  launch(accounting, 0);
  for (std::uint32_t id = 1; id <= (1u << 20) + 1; ++id) accounting.kernel_arrived(id);
  EXPECT_EQ(accounting.kernels_missing(), std::nullopt);
  EXPECT_NE(accounting.why_unchecked().find("no launch API record"), std::string::npos);
}

}  // namespace
}  // namespace gpuprof::collector
