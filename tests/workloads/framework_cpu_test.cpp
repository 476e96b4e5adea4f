// Framework pieces that need no GPU: error messages of checked calls, the
// parameter layout, pageable host arrays.
#include <functional>
#include <string>

#include <gtest/gtest.h>

#include "cuda_check.hpp"
#include "host_array.hpp"
#include "parameter_layout.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

std::string message_of(const std::function<void()>& action) {
  try {
    action();
  } catch (const WorkloadError& error) {
    return error.what();
  }
  return {};
}

TEST(CheckedCalls, MessageNamesTheCallAndTheLibraryError) {
  const std::string message =
      message_of([] { GPUPROF_CHECK(cudnnSetStream(nullptr, nullptr)); });
  EXPECT_EQ(message.rfind("cudnnSetStream failed: ", 0), 0U) << message;
  EXPECT_EQ(message.find("nullptr"), std::string::npos) << "arguments are left out: " << message;
}

TEST(CheckedCalls, OutOfMemorySuggestsASmallerBatch) {
  const std::string cuda = message_of([] { check_status(cudaErrorMemoryAllocation, "cudaMalloc(&p, n)"); });
  EXPECT_NE(cuda.find("cudaMalloc failed"), std::string::npos) << cuda;
  EXPECT_NE(cuda.find("smaller --batch"), std::string::npos) << cuda;
  const std::string cublas = message_of([] { check_status(CUBLAS_STATUS_ALLOC_FAILED, "cublasCreate(&h)"); });
  EXPECT_NE(cublas.find("smaller --batch"), std::string::npos) << cublas;
  const std::string other = message_of([] { check_status(cudaErrorInvalidValue, "cudaMemcpy(a, b)"); });
  EXPECT_EQ(other.find("smaller --batch"), std::string::npos) << other;
}

TEST(CheckedCalls, SuccessIsSilent) {
  EXPECT_NO_THROW(check_status(cudaSuccess, "cudaFree(p)"));
  EXPECT_NO_THROW(check_status(ncclSuccess, "ncclGroupEnd()"));
}

TEST(ParameterLayout, AlignsEveryEntryTo256Bytes) {
  ParameterLayout layout;
  EXPECT_EQ(layout.add("a", 10), 0U);
  EXPECT_EQ(layout.add("b", 100), 1U);
  layout.add("c", 1);
  EXPECT_EQ(layout.entry(0).offset, 0U);
  EXPECT_EQ(layout.entry(1).offset, 64U);
  EXPECT_EQ(layout.entry(2).offset, 192U);
  EXPECT_EQ(layout.total(), 193U);
}

TEST(HostArray, PageableMemoryNeedsNoGpu) {
  HostArray<float> array(16, false, "test");
  array.data()[15] = 2.0F;
  HostArray<float> moved = std::move(array);
  EXPECT_EQ(moved.size(), 16U);
  EXPECT_FALSE(moved.pinned());
  EXPECT_EQ(moved.data()[15], 2.0F);
}

}  // namespace
}  // namespace gpuprof::workloads
