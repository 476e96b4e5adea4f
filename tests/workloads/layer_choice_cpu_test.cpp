// The pure parts of the resnet layers' implementation choices, on fake candidates: the
// measured convolution choice, the measurement cache and its key, the batch-norm path
// and its fallbacks, and the once-only notes.
#include <array>
#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "batch_norm_path.hpp"
#include "convolution_cache.hpp"
#include "convolution_measurement.hpp"
#include "fake_algorithm_perf.hpp"
#include "layer_notice.hpp"

namespace gpuprof::workloads {
namespace {

using Forward = MeasuredCandidate<cudnnConvolutionFwdAlgo_t>;

Forward candidate(cudnnConvolutionFwdAlgo_t algorithm, cudnnMathType_t math, float milliseconds, std::size_t bytes) {
  return Forward{algorithm, math, milliseconds, bytes};
}

TEST(MeasuredConvolution, TheFastestThatFitsTheWorkspaceWins) {
  const std::vector<Forward> measured = {
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_FFT, CUDNN_DEFAULT_MATH, 0.5F, 2048),  // fastest, too big
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 2.0F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_TENSOR_OP_MATH, 1.0F, 1024),
  };
  const auto chosen = fastest_fitting(measured, 1024, CUDNN_DEFAULT_MATH);
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
  EXPECT_EQ(chosen->math, CUDNN_TENSOR_OP_MATH);
  EXPECT_EQ(chosen->workspace_bytes, 1024U);
  // A larger limit lets the fastest one in: the same measurements, chosen again.
  EXPECT_EQ(fastest_fitting(measured, 4096, CUDNN_DEFAULT_MATH)->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_FFT);
  EXPECT_FALSE(fastest_fitting(std::vector<Forward>{}, 1 << 30, CUDNN_DEFAULT_MATH).has_value());
}

// fp32 runs ask for FMA math: a tensor-core candidate is never taken, however fast; one
// timed with FMA math beats a faster one timed with default math (maybe TF32), and a
// default-math one, taken where nothing else fits, runs with FMA set on the descriptor.
TEST(MeasuredConvolution, Fp32NeverGetsTensorCoreMath) {
  const std::vector<Forward> measured = {
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM, CUDNN_TENSOR_OP_MATH, 0.1F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION, 0.2F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 0.9F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, CUDNN_FMA_MATH, 1.0F, 4096),
  };
  const auto chosen = fastest_fitting(measured, 1 << 30, CUDNN_FMA_MATH);
  ASSERT_TRUE(chosen.has_value());
  EXPECT_EQ(chosen->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM);
  EXPECT_EQ(chosen->math, CUDNN_FMA_MATH);
  const auto small = fastest_fitting(measured, 1024, CUDNN_FMA_MATH);
  ASSERT_TRUE(small.has_value());
  EXPECT_EQ(small->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_GEMM);
  EXPECT_EQ(small->math, CUDNN_FMA_MATH);
  // tf32 and bf16 take tensor cores, but never a conversion to fp16.
  EXPECT_EQ(fastest_fitting(measured, 1 << 30, CUDNN_DEFAULT_MATH)->algorithm,
            CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_PRECOMP_GEMM);
  EXPECT_FALSE(math_respects(CUDNN_TENSOR_OP_MATH, CUDNN_TENSOR_OP_MATH_ALLOW_CONVERSION));
  EXPECT_FALSE(math_respects(CUDNN_FMA_MATH, CUDNN_TENSOR_OP_MATH));
  EXPECT_TRUE(math_respects(CUDNN_TENSOR_OP_MATH, CUDNN_FMA_MATH));
}

// Equal times go to the smaller workspace, then the lower algorithm number, whatever the order.
TEST(MeasuredConvolution, TiesBreakTheSameWayInAnyOrder) {
  std::vector<Forward> measured = {
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_WINOGRAD, CUDNN_DEFAULT_MATH, 1.0F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 1.0F, 0),
      candidate(CUDNN_CONVOLUTION_FWD_ALGO_DIRECT, CUDNN_DEFAULT_MATH, 1.0F, 16),
  };
  const auto first = fastest_fitting(measured, 1 << 20, CUDNN_DEFAULT_MATH);
  std::reverse(measured.begin(), measured.end());
  const auto second = fastest_fitting(measured, 1 << 20, CUDNN_DEFAULT_MATH);
  ASSERT_TRUE(first && second);
  EXPECT_EQ(first->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_GEMM);
  EXPECT_EQ(second->algorithm, CUDNN_CONVOLUTION_FWD_ALGO_GEMM);
}

cudnnConvolutionBwdFilterAlgoPerf_t timed(cudnnConvolutionBwdFilterAlgo_t algorithm, cudnnMathType_t math, float time,
                                          std::size_t memory, cudnnStatus_t status = CUDNN_STATUS_SUCCESS) {
  return testing::fake_perf<cudnnConvolutionBwdFilterAlgoPerf_t>(algorithm, math, memory, time, status);
}

// The find's results become candidates: failures, bad times and algorithms cuDNN's query
// refuses are left out; the workspace is the larger of the two figures, asked with the
// math type the candidate will run with.
TEST(MeasuredConvolution, FindResultsBecomeCandidates) {
  std::array<cudnnConvolutionBwdFilterAlgoPerf_t, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_COUNT> results{};
  results.fill(timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, CUDNN_FMA_MATH, 0.0F, 0, CUDNN_STATUS_NOT_SUPPORTED));
  results[0] = timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1, CUDNN_DEFAULT_MATH, 0.3F, 100);
  results[1] = timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, CUDNN_FMA_MATH, 0.1F, 0, CUDNN_STATUS_ALLOC_FAILED);
  results[2] = timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_3, CUDNN_FMA_MATH, -1.0F, 0);
  results[3] = timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT, CUDNN_FMA_MATH, 0.4F, 0);
  results[4] = timed(CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED, CUDNN_FMA_MATH, 0.5F, 0);
  std::vector<cudnnMathType_t> asked;
  const auto query = [&](cudnnConvolutionBwdFilterAlgo_t algorithm,
                         cudnnMathType_t math) -> std::optional<std::size_t> {
    asked.push_back(math);
    if (algorithm == CUDNN_CONVOLUTION_BWD_FILTER_ALGO_FFT) return std::nullopt;
    return std::size_t{64};
  };
  const auto candidates = measured_candidates(results, 5, CUDNN_FMA_MATH, query);
  ASSERT_EQ(candidates.size(), 2U);
  EXPECT_EQ(candidates[0].algorithm, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_1);
  EXPECT_EQ(candidates[0].workspace_bytes, 100U);
  EXPECT_FLOAT_EQ(candidates[0].milliseconds, 0.3F);
  EXPECT_EQ(candidates[1].algorithm, CUDNN_CONVOLUTION_BWD_FILTER_ALGO_WINOGRAD_NONFUSED);
  EXPECT_EQ(candidates[1].workspace_bytes, 64U);
  for (const cudnnMathType_t math : asked) EXPECT_EQ(math, CUDNN_FMA_MATH);  // fp32: FMA whatever was reported
  EXPECT_TRUE(measured_candidates(results, -4, CUDNN_FMA_MATH, query).empty());
  EXPECT_EQ(measured_candidates(results, 999, CUDNN_FMA_MATH, query).size(), 2U);
}

ConvolutionKey resnet_key() {
  return ConvolutionKey{64, 56, 56, 64, 64, 3, 1, 1, true, ElementType::bf16, CUDNN_TENSOR_OP_MATH, "NVIDIA H200"};
}

TEST(ConvolutionCache, KeysDifferInEveryField) {
  const ConvolutionKey base = resnet_key();
  EXPECT_EQ(base, resnet_key());
  std::vector<ConvolutionKey> changed(12, base);
  changed[0].batch = 32;
  changed[1].height = 28;
  changed[2].width = 28;
  changed[3].channels = 128;
  changed[4].outputs = 256;
  changed[5].kernel = 1;
  changed[6].stride = 2;
  changed[7].padding = 0;
  changed[8].channels_last = false;
  changed[9].element = ElementType::fp32;
  changed[10].math = CUDNN_FMA_MATH;
  changed[11].gpu = "NVIDIA H100 80GB HBM3";
  for (std::size_t i = 0; i < changed.size(); ++i) {
    EXPECT_NE(changed[i], base) << i;
    EXPECT_TRUE(changed[i] < base || base < changed[i]) << i;
  }
}

TEST(ConvolutionCache, MeasuresEachKeyOnceAndForgetsFailures) {
  ConvolutionCache cache;
  int measured = 0;
  const auto measure = [&] {
    ++measured;
    ConvolutionMeasurement result;
    result.forward.push_back(candidate(CUDNN_CONVOLUTION_FWD_ALGO_GEMM, CUDNN_DEFAULT_MATH, 1.0F, 0));
    return result;
  };
  EXPECT_EQ(cache.find_or_measure(resnet_key(), measure).forward.size(), 1U);
  EXPECT_EQ(cache.find_or_measure(resnet_key(), measure).forward.size(), 1U);
  EXPECT_EQ(measured, 1);
  ConvolutionKey other = resnet_key();
  other.batch = 1;
  EXPECT_THROW(cache.find_or_measure(other, []() -> ConvolutionMeasurement { throw std::runtime_error("find"); }),
               std::runtime_error);
  EXPECT_EQ(cache.size(), 1U);
  cache.find_or_measure(other, measure);
  EXPECT_EQ(measured, 2);
  EXPECT_EQ(cache.size(), 2U);
}

BatchNormPath path_for(BatchNormImplementation implementation, bool channels_last, ElementType element,
                       BatchNormEpilogue epilogue) {
  return choose_batch_norm_path(BatchNormRequest{implementation, channels_last, element, epilogue});
}

TEST(BatchNormPathChoice, LegacyIsTheOldPathWhateverTheTensor) {
  for (const bool channels_last : {false, true}) {
    for (const ElementType element : {ElementType::fp32, ElementType::bf16}) {
      const BatchNormPath path =
          path_for(BatchNormImplementation::legacy, channels_last, element, BatchNormEpilogue::add_relu);
      EXPECT_EQ(path, (BatchNormPath{false, CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_OPS_BN}));
      EXPECT_EQ(epilogue_left(path, BatchNormEpilogue::add_relu), BatchNormEpilogue::add_relu);
    }
  }
}

TEST(BatchNormPathChoice, FusedIsPersistentForChannelsLastAndFusesTheEpilogueInBf16) {
  const auto fused = BatchNormImplementation::fused;
  EXPECT_EQ(path_for(fused, false, ElementType::fp32, BatchNormEpilogue::relu),
            (BatchNormPath{true, CUDNN_BATCHNORM_SPATIAL, CUDNN_BATCHNORM_OPS_BN}));
  EXPECT_EQ(path_for(fused, true, ElementType::fp32, BatchNormEpilogue::relu),
            (BatchNormPath{true, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN}));
  const BatchNormPath relu = path_for(fused, true, ElementType::bf16, BatchNormEpilogue::relu);
  EXPECT_EQ(relu, (BatchNormPath{true, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN_ACTIVATION}));
  EXPECT_EQ(epilogue_left(relu, BatchNormEpilogue::relu), BatchNormEpilogue::none);
  const BatchNormPath add = path_for(fused, true, ElementType::bf16, BatchNormEpilogue::add_relu);
  EXPECT_EQ(add.ops, CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION);
  EXPECT_EQ(epilogue_left(add, BatchNormEpilogue::add_relu), BatchNormEpilogue::none);
  EXPECT_EQ(path_for(fused, true, ElementType::bf16, BatchNormEpilogue::none).ops, CUDNN_BATCHNORM_OPS_BN);
  EXPECT_EQ(path_for(fused, false, ElementType::bf16, BatchNormEpilogue::add_relu).ops, CUDNN_BATCHNORM_OPS_BN);
}

// A refused path steps down: the fused epilogue goes first (it returns to our kernel), then the Ex calls.
TEST(BatchNormPathChoice, RefusalsStepDownToTheLegacyPathAndStop) {
  const BatchNormPath add = path_for(BatchNormImplementation::fused, true, ElementType::bf16,
                                     BatchNormEpilogue::add_relu);
  const auto unfused = fallback_after(add);
  ASSERT_TRUE(unfused.has_value());
  EXPECT_EQ(*unfused, (BatchNormPath{true, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, CUDNN_BATCHNORM_OPS_BN}));
  EXPECT_EQ(epilogue_left(*unfused, BatchNormEpilogue::add_relu), BatchNormEpilogue::add_relu);
  const auto legacy = fallback_after(*unfused);
  ASSERT_TRUE(legacy.has_value());
  EXPECT_EQ(*legacy, BatchNormPath{});
  EXPECT_FALSE(fallback_after(*legacy).has_value());
  EXPECT_NE(describe(add), describe(*unfused));
  EXPECT_NE(describe(*unfused), describe(*legacy));
}

std::string printed_by(const std::function<void(std::FILE*)>& action) {
  std::FILE* file = std::tmpfile();
  action(file);
  std::rewind(file);
  std::string text;
  for (int c = std::fgetc(file); c != EOF; c = std::fgetc(file)) text.push_back(static_cast<char>(c));
  std::fclose(file);
  return text;
}

TEST(LayerNotice, EachMessageIsPrintedOnce) {
  const std::string text = printed_by([](std::FILE* file) {
    EXPECT_TRUE(note_once("layer_choice_cpu_test: first", file));
    EXPECT_FALSE(note_once("layer_choice_cpu_test: first", file));
    EXPECT_TRUE(note_once("layer_choice_cpu_test: second", file));
  });
  EXPECT_EQ(text, "gpuprof-workload: note: layer_choice_cpu_test: first\n"
                  "gpuprof-workload: note: layer_choice_cpu_test: second\n");
}

}  // namespace
}  // namespace gpuprof::workloads
