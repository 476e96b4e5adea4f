// Framework pieces that need no GPU: error messages of checked calls, the
// parameter layout, pageable host arrays, the choice among cuDNN's convolution algorithms.
#include <functional>
#include <optional>
#include <utility>
#include <vector>
#include <string>

#include <gtest/gtest.h>

#include "convolution_algorithm.hpp"
#include "cuda_check.hpp"
#include "fake_algorithm_perf.hpp"
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

cudnnConvolutionFwdAlgoPerf_t offer(cudnnConvolutionFwdAlgo_t algorithm, cudnnMathType_t math, std::size_t memory,
                                    cudnnStatus_t status = CUDNN_STATUS_SUCCESS) {
  return testing::fake_perf<cudnnConvolutionFwdAlgoPerf_t>(algorithm, math, memory, 0.0F, status);
}

// The workspace is the larger of the heuristic's figure and cuDNN's query (asked with
// the offer's math type): an offer either figure puts over the limit is passed over.
TEST(ConvolutionAlgorithm, TheWorkspaceIsTheLargerOfCudnnsQueryAndTheHeuristicsFigure) {
  std::array<cudnnConvolutionFwdAlgoPerf_t, CUDNN_CONVOLUTION_FWD_ALGO_COUNT> offered{};
  offered[0] = offer(CUDNN_CONVOLUTION_FWD_ALGO_FFT, CUDNN_TENSOR_OP_MATH, 0);
  offered[1] = offer(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 4096, CUDNN_STATUS_NOT_SUPPORTED);
  offered[2] = offer(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_FMA_MATH, 0);
  offered[3] = offer(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CUDNN_TENSOR_OP_MATH, 1 << 30);
  offered[4] = offer(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_TENSOR_OP_MATH, 4096);
  std::vector<std::pair<cudnnConvolutionFwdAlgo_t, cudnnMathType_t>> asked;
  const auto workspace_of = [&](cudnnConvolutionFwdAlgo_t algorithm,
                                cudnnMathType_t math) -> std::optional<std::size_t> {
    asked.emplace_back(algorithm, math);
    if (algorithm == CUDNN_CONVOLUTION_FWD_ALGO_FFT) return std::size_t{1} << 20;  // over the limit
    if (algorithm == CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM) return std::nullopt;  // refused by cuDNN
    return std::size_t{2048};
  };
  const auto chosen = first_fitting_algorithm(offered, 5, 64 << 10, workspace_of);
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
  EXPECT_EQ(chosen->math, CUDNN_TENSOR_OP_MATH);
  EXPECT_EQ(chosen->workspace_bytes, 4096U);
  // Each runnable offer was asked about with its own math type; the failed one was skipped.
  const std::vector<std::pair<cudnnConvolutionFwdAlgo_t, cudnnMathType_t>> expected = {
      {CUDNN_CONVOLUTION_FWD_ALGO_FFT, CUDNN_TENSOR_OP_MATH},
      {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_FMA_MATH},
      {CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CUDNN_TENSOR_OP_MATH},
      {CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_TENSOR_OP_MATH}};
  EXPECT_EQ(asked, expected);
}

TEST(ConvolutionAlgorithm, NothingFittingIsNoChoiceAndABadCountIsClamped) {
  std::array<cudnnConvolutionFwdAlgoPerf_t, CUDNN_CONVOLUTION_FWD_ALGO_COUNT> offered{};
  offered.fill(offer(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 0));
  int asked = 0;
  const auto too_big = [&](cudnnConvolutionFwdAlgo_t, cudnnMathType_t) -> std::optional<std::size_t> {
    ++asked;
    return std::size_t{1} << 40;
  };
  EXPECT_FALSE(first_fitting_algorithm(offered, 1000, 1 << 30, too_big).has_value());
  EXPECT_EQ(asked, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
  EXPECT_FALSE(first_fitting_algorithm(offered, -3, 1 << 30, too_big).has_value());
  EXPECT_EQ(asked, CUDNN_CONVOLUTION_FWD_ALGO_COUNT);
}

}  // namespace
}  // namespace gpuprof::workloads
