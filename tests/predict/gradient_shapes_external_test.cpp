#include <gtest/gtest.h>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/predict/prediction.hpp"
#include "temporary_folder.hpp"

// `gpuprof predict` on a real Kineto trace needs no --grad-bytes when the trace recorded shapes: the
// gradient size comes from AccumulateGrad's inputs (kineto-resnet50; skips without ../shared/data/external).

namespace gpuprof::predict {
namespace {

TEST(GradientShapesExternal, ResnetPredictionTakesItsGradientSizeFromTheTrace) {
  const auto dir = gpuprof::testing::external_data_dir();
  if (dir.empty()) GTEST_SKIP() << "no ../shared/data/external in this clone";
  gpuprof::testing::TemporaryFolder folder;
  importers::ImportOptions import;
  import.input = (dir / "kineto-resnet50" / "resnet50_num_workers_4.pt.trace.json.gz").string();
  import.output = folder.file("resnet.sqlite");
  importers::import_trace(import);
  const auto model = trace::load_trace_model(import.output);
  PredictOptions options;
  options.gpus = {4};
  options.link = link_preset("nvlink2");
  const auto prediction = predict({&model}, options);  // no gradient_bytes option
  EXPECT_EQ(prediction.gradient_bytes, 25'557'032LL * 4);
  EXPECT_NE(prediction.gradient_source.find("AccumulateGrad"), std::string::npos) << prediction.gradient_source;
  ASSERT_EQ(prediction.rows.size(), 1u);
  EXPECT_GT(prediction.rows.front().step_ns, 0.0);
}

}  // namespace
}  // namespace gpuprof::predict
