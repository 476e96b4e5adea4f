// --conv-algo graph without a GPU: which engines of cuDNN's graph API are timed and kept
// (fake engine lists), the plan cache, and the graph's tensors as cuDNN holds them (cuDNN
// builds and checks backend tensors and operations on the host). Also the layouts the legacy
// descriptors and the pooling layers hold: NHWC stays NHWC from the images to the classifier.
#include <cmath>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "convolution_graph.hpp"
#include "graph_engine_choice.hpp"
#include "pooling_layer.hpp"
#include "tensor_layout.hpp"

namespace gpuprof::workloads {
namespace {

GraphEngine engine(std::int64_t index, std::vector<cudnnBackendNumericalNote_t> notes = {},
                   std::vector<cudnnBackendBehaviorNote_t> behaviour = {}) {
  return GraphEngine{index, std::move(notes), std::move(behaviour)};
}

// fp32 (FMA requested) takes no tensor-core engine (TF32 kernels); no precision takes an
// engine that rounds its inputs down or reduces in less than fp32.
TEST(GraphEngineChoice, EnginesKeepTheNumericsOfThePrecision) {
  const std::vector<cudnnBackendNumericalNote_t> none;
  const std::vector<cudnnBackendNumericalNote_t> tensor_core = {CUDNN_NUMERICAL_NOTE_TENSOR_CORE};
  const std::vector<cudnnBackendNumericalNote_t> down_convert = {CUDNN_NUMERICAL_NOTE_TENSOR_CORE,
                                                                 CUDNN_NUMERICAL_NOTE_DOWN_CONVERT_INPUTS};
  const std::vector<cudnnBackendNumericalNote_t> reduced = {CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION};
  const std::vector<cudnnBackendNumericalNote_t> winograd = {CUDNN_NUMERICAL_NOTE_WINOGRAD,
                                                             CUDNN_NUMERICAL_NOTE_NONDETERMINISTIC};
  for (const cudnnMathType_t requested : {CUDNN_FMA_MATH, CUDNN_DEFAULT_MATH, CUDNN_TENSOR_OP_MATH}) {
    EXPECT_TRUE(graph_engine_respects(requested, none)) << requested;
    EXPECT_TRUE(graph_engine_respects(requested, winograd)) << requested;
    EXPECT_FALSE(graph_engine_respects(requested, down_convert)) << requested;
    EXPECT_FALSE(graph_engine_respects(requested, reduced)) << requested;
  }
  EXPECT_FALSE(graph_engine_respects(CUDNN_FMA_MATH, tensor_core));
  EXPECT_TRUE(graph_engine_respects(CUDNN_DEFAULT_MATH, tensor_core));    // tf32
  EXPECT_TRUE(graph_engine_respects(CUDNN_TENSOR_OP_MATH, tensor_core));  // bf16
}

// The first few allowed engines in the heuristics' order: none twice (mode A's list and the
// fallback list overlap), none compiled at run time, none breaking the numerics.
TEST(GraphEngineChoice, TheFirstFewAllowedEnginesAreTimedInTheHeuristicsOrder) {
  const std::vector<GraphEngine> offered = {
      engine(7, {CUDNN_NUMERICAL_NOTE_TENSOR_CORE}),                          // 0: tensor cores
      engine(3),                                                              // 1
      engine(9, {}, {CUDNN_BEHAVIOR_NOTE_RUNTIME_COMPILATION}),               // 2: compiled at run time
      engine(4, {CUDNN_NUMERICAL_NOTE_FFT}),                                  // 3
      engine(3),                                                              // 4: fallback repeats 3
      engine(5, {CUDNN_NUMERICAL_NOTE_REDUCED_PRECISION_REDUCTION}),          // 5
      engine(6),                                                              // 6
      engine(8),                                                              // 7
  };
  EXPECT_EQ(engines_to_time(offered, CUDNN_FMA_MATH, 3), (std::vector<std::size_t>{1, 3, 6}));
  EXPECT_EQ(engines_to_time(offered, CUDNN_DEFAULT_MATH, 3), (std::vector<std::size_t>{0, 1, 3}));
  EXPECT_EQ(engines_to_time(offered, CUDNN_FMA_MATH, 100), (std::vector<std::size_t>{1, 3, 6, 7}));
  EXPECT_TRUE(engines_to_time(offered, CUDNN_FMA_MATH, 0).empty());
  EXPECT_TRUE(engines_to_time({}, CUDNN_FMA_MATH, 4).empty());
}

TEST(GraphEngineChoice, TheFastestTimedPlanThatFitsIsKept) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<TimedPlan> plans = {
      TimedPlan{10, 0, 0.5F, 4096},  // fastest, needs 4 KiB
      TimedPlan{11, 1, nan, 0},      // finalized but failed to run
      TimedPlan{12, 2, -1.0F, 0},    // no time
      TimedPlan{13, 3, 1.0F, 1024},
      TimedPlan{14, 4, 1.0F, 512},  // as fast, smaller workspace
      TimedPlan{15, 5, 2.0F, 0},
  };
  EXPECT_EQ(fastest_fitting_plan(plans, 1 << 20)->engine, 10);
  EXPECT_EQ(fastest_fitting_plan(plans, 1024)->engine, 14);
  EXPECT_EQ(fastest_fitting_plan(plans, 100)->engine, 15);
  EXPECT_FALSE(fastest_fitting_plan({plans[1], plans[2]}, 1 << 20).has_value());
  EXPECT_FALSE(fastest_fitting_plan({}, 1 << 20).has_value());
  // Equal time and workspace: the engine offered first, in any order of the list.
  const std::vector<TimedPlan> tied = {TimedPlan{21, 3, 1.0F, 0}, TimedPlan{20, 1, 1.0F, 0}};
  EXPECT_EQ(fastest_fitting_plan(tied, 0)->engine, 20);
  EXPECT_EQ(fastest_fitting_plan({tied[1], tied[0]}, 0)->engine, 20);
}

ConvolutionKey key_of(int batch) {
  return ConvolutionKey{batch, 56, 56, 64, 64, 3, 1, 1, true, ElementType::fp32, CUDNN_DEFAULT_MATH, "NVIDIA H200"};
}

// The find's cache template (MeasurementCache, whose once-only and failure rules
// ConvolutionCache.MeasuresEachKeyOnceAndForgetsFailures checks) under the find's key; the
// value keeps each pass's timed plans apart.
TEST(GraphPlanCache, EachKeyKeepsItsThreePassesApart) {
  GraphPlanCache cache;
  GraphMeasurement timed;
  timed.of(ConvolutionPass::forward).push_back(TimedPlan{1, 0, 0.1F, 0});
  timed.of(ConvolutionPass::data).push_back(TimedPlan{2, 0, 0.2F, 0});
  timed.of(ConvolutionPass::filter).push_back(TimedPlan{3, 1, 0.3F, 0});
  cache.find_or_measure(key_of(64), [&] { return timed; });
  const GraphMeasurement again = cache.find_or_measure(key_of(64), []() -> GraphMeasurement {
    throw std::runtime_error("timed twice");
  });
  EXPECT_EQ(again.forward, timed.forward);
  EXPECT_EQ(again.data.at(0).engine, 2);
  EXPECT_EQ(again.filter.at(0).engine, 3);
  EXPECT_EQ(again.filter.at(0).position, 1U);
  EXPECT_TRUE(cache.find_or_measure(key_of(32), [] { return GraphMeasurement{}; }).forward.empty());
  EXPECT_EQ(cache.size(), 2U);
  EXPECT_EQ(&graph_plan_cache(), &graph_plan_cache());
}

TEST(TensorLayout, StridesCarryTheLayoutInNchwOrderedDimensions) {
  const ImageShape nhwc{64, 56, 28, 256, true, ElementType::bf16};
  const StridedShape image = image_layout(nhwc);
  EXPECT_EQ(image.dimensions, (std::array<std::int64_t, 4>{64, 256, 56, 28}));
  EXPECT_EQ(image.strides, (std::array<std::int64_t, 4>{56 * 28 * 256, 1, 28 * 256, 256}));
  ImageShape nchw = nhwc;
  nchw.channels_last = false;
  EXPECT_EQ(image_layout(nchw).strides, (std::array<std::int64_t, 4>{256 * 56 * 28, 56 * 28, 28, 1}));
  const StridedShape krsc = filter_layout(128, 64, 3, true);
  EXPECT_EQ(krsc.dimensions, (std::array<std::int64_t, 4>{128, 64, 3, 3}));
  EXPECT_EQ(krsc.strides, (std::array<std::int64_t, 4>{3 * 3 * 64, 1, 3 * 64, 64}));
  EXPECT_EQ(filter_layout(128, 64, 3, false).strides, (std::array<std::int64_t, 4>{64 * 9, 9, 3, 1}));
  EXPECT_TRUE(is_packed(image, true));
  EXPECT_FALSE(is_packed(image, false));
}

// The graph's tensors, as cuDNN holds them once finalized, in both layouts; the three
// operations (and the adding data gradient) are accepted by cuDNN on the host.
TEST(GraphConvolutionDescriptors, TensorsKeepTheirLayoutInCudnn) {
  for (const bool channels_last : {true, false}) {
    const ElementType element = channels_last ? ElementType::bf16 : ElementType::fp32;
    const ImageShape input{64, 56, 56, 64, channels_last, element};
    const ImageShape output{64, 28, 28, 128, channels_last, element};
    const ConvolutionOperations operations(ConvolutionGeometry{input, output, 3, 2, 1});
    const StridedShape x = operations.layout_of(graph_input);
    const StridedShape w = operations.layout_of(graph_filter);
    const StridedShape y = operations.layout_of(graph_output);
    EXPECT_EQ(x.dimensions, image_layout(input).dimensions);
    EXPECT_EQ(x.strides, image_layout(input).strides) << channels_last;
    EXPECT_EQ(y.strides, image_layout(output).strides) << channels_last;
    EXPECT_EQ(w.dimensions, (std::array<std::int64_t, 4>{128, 64, 3, 3}));
    EXPECT_EQ(w.strides, filter_layout(128, 64, 3, channels_last).strides) << channels_last;
    EXPECT_NE(operations.operation(ConvolutionPass::data).get(),
              operations.operation(ConvolutionPass::data, true).get());
  }
}

// A shape cuDNN cannot convolve is refused while the operations are built, as an error
// naming the call: the layer then takes the measured path.
TEST(GraphConvolutionDescriptors, AnImpossibleShapeIsRefusedWithTheCallNamed) {
  const ImageShape input{8, 7, 7, 64, true, ElementType::fp32};
  const ImageShape wrong_output{8, 7, 7, 32, true, ElementType::fp32};  // a 3x3/2 convolution gives 4x4
  try {
    ConvolutionOperations operations(ConvolutionGeometry{input, wrong_output, 3, 2, 1});
    FAIL() << "cuDNN accepted a 7x7 output of a stride-2 convolution of a 7x7 image";
  } catch (const std::exception& error) {
    EXPECT_NE(std::string(error.what()).find("cudnnBackendFinalize of the convolution operation"),
              std::string::npos)
        << error.what();
  }
}

// NHWC from the images to the classifier: the legacy descriptors hold what they were given,
// and the pooling layers (stem max pooling, global average pooling) keep the layout.
TEST(ChannelsLastPath, PoolingAndLegacyDescriptorsStayNhwc) {
  const ImageShape stem_output{64, 112, 112, 64, true, ElementType::bf16};
  PoolingLayer stem_pool(PoolingConfig{CUDNN_POOLING_MAX, 3, 1, 2});
  const ImageShape pooled = stem_pool.prepare(stem_output);
  EXPECT_TRUE(pooled.channels_last);
  EXPECT_EQ(pooled.height, 56);
  EXPECT_EQ(described_layout(stem_pool.input_descriptor()).strides, image_layout(stem_output).strides);
  EXPECT_EQ(described_layout(stem_pool.output_descriptor()).strides, image_layout(pooled).strides);
  const ImageShape last{64, 7, 7, 2048, true, ElementType::bf16};
  PoolingLayer average(global_average_pooling(7));
  const ImageShape features = average.prepare(last);
  EXPECT_TRUE(features.channels_last);
  EXPECT_EQ(features.elements(), 64 * 2048);
  EXPECT_TRUE(is_packed(described_layout(average.input_descriptor()), true));
  EXPECT_TRUE(is_packed(described_layout(average.output_descriptor()), true));
  TensorDescriptor nchw;
  const ImageShape fp32{64, 56, 56, 64, false, ElementType::fp32};
  nchw.set(fp32);
  EXPECT_EQ(described_layout(nchw).strides, image_layout(fp32).strides);
  EXPECT_EQ(described_layout(nchw).dimensions, image_layout(fp32).dimensions);
}

}  // namespace
}  // namespace gpuprof::workloads
