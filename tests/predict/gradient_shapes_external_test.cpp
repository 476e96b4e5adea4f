#include <gtest/gtest.h>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/predict/prediction.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "temporary_folder.hpp"

// `gpuprof predict` on a real Kineto trace needs no --grad-bytes when the trace recorded shapes: the
// gradient size comes from AccumulateGrad's inputs (kineto-resnet50; skips without ../shared/data/external).

namespace gpuprof::predict {
namespace {

// One trace of ../shared/data/external imported into `folder` and loaded.
trace::TraceModel imported(const std::filesystem::path& input, const gpuprof::testing::TemporaryFolder& folder) {
  importers::ImportOptions import;
  import.input = input.string();
  import.output = folder.file(input.filename().string() + ".sqlite");
  importers::import_trace(import);
  return trace::load_trace_model(import.output);
}

TEST(GradientShapesExternal, ResnetPredictionTakesItsGradientSizeFromTheTrace) {
  const auto dir = gpuprof::testing::external_data_dir();
  if (dir.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  const auto model = imported(dir / "kineto-resnet50" / "resnet50_num_workers_4.pt.trace.json.gz", folder);
  PredictOptions options;
  options.gpus = {4};
  options.link = link_preset("nvlink2");
  const auto prediction = predict({&model}, options);  // no gradient_bytes option
  EXPECT_EQ(prediction.gradient_bytes, 25'557'032LL * 4);
  EXPECT_NE(prediction.gradient_source.find("AccumulateGrad"), std::string::npos) << prediction.gradient_source;
  ASSERT_EQ(prediction.rows.size(), 1u);
  EXPECT_GT(prediction.rows.front().step_ns, 0.0);
}

// One rank of a 2-rank DDP job is refused as the 1-GPU trace; meant as the input (`--multi-gpu-input`), its own
// all-reduces size the gradients: 102,228,128 bytes per step, ResNet-50's 25,557,032 fp32 parameters.
TEST(GradientShapesExternal, MultiGpuTraceIsRefusedUnlessMeantAndThenSizedByItsAllReduces) {
  const auto dir = gpuprof::testing::external_data_dir();
  if (dir.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  const auto model = imported(dir / "hta" / "nccl_data_rank0of2.json.gz", folder);
  PredictOptions options;
  options.gpus = {2};
  options.link = link_preset("nvlink3");
  EXPECT_THROW(predict({&model}, options), TraceError);
  options.accept_multi_gpu_trace = true;
  const auto prediction = predict({&model}, options);
  EXPECT_EQ(prediction.gradient_bytes, 25'557'032LL * 4);
  EXPECT_NE(prediction.gradient_source.find("all-reduces"), std::string::npos) << prediction.gradient_source;
}

}  // namespace
}  // namespace gpuprof::predict
