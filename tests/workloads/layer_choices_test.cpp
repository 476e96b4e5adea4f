// --conv-algo and --batch-norm: defaults, parsing and the choices the layers get.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "layer_choices.hpp"
#include "options.hpp"
#include "run_summary.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

ParsedCommandLine parse(std::initializer_list<const char*> arguments) {
  std::vector<const char*> argv = {"gpuprof-workload"};
  argv.insert(argv.end(), arguments.begin(), arguments.end());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

TEST(LayerChoices, DefaultsAreMeasuredConvolutionsAndFusedBatchNorm) {
  const ParsedCommandLine parsed = parse({"resnet"});
  ASSERT_TRUE(parsed.options.has_value());
  const LayerChoices choices = layer_choices(*parsed.options);
  EXPECT_EQ(choices.convolution, ConvolutionSearch::measured);
  EXPECT_EQ(choices.batch_norm, BatchNormImplementation::fused);
}

TEST(LayerChoices, TheOldPathsAreSelectable) {
  const ParsedCommandLine parsed = parse({"resnet", "--conv-algo", "heuristic", "--batch-norm", "legacy"});
  ASSERT_TRUE(parsed.options.has_value());
  const LayerChoices choices = layer_choices(*parsed.options);
  EXPECT_EQ(choices.convolution, ConvolutionSearch::heuristic);
  EXPECT_EQ(choices.batch_norm, BatchNormImplementation::legacy);
  EXPECT_STREQ(name_of(choices.convolution), "heuristic");
  EXPECT_STREQ(name_of(choices.batch_norm), "legacy");
}

// The graph API is a third choice beside the two, named as given in the run's note and summary.
TEST(LayerChoices, TheGraphApiIsAThirdConvolutionChoice) {
  const ParsedCommandLine parsed = parse({"resnet", "--conv-algo", "graph"});
  ASSERT_TRUE(parsed.options.has_value()) << parsed.error;
  const LayerChoices choices = layer_choices(*parsed.options);
  EXPECT_EQ(choices.convolution, ConvolutionSearch::graph);
  EXPECT_STREQ(name_of(choices.convolution), "graph");
  EXPECT_STREQ(name_of(ConvolutionSearch::measured), "measured");
  RunSummary summary;
  summary.options = *parsed.options;
  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_STREQ(document["configuration"]["conv_algo"].GetString(), "graph");
}

// --layout forces either layout in any precision (fp32 in NHWC: do cuDNN's transposes of NCHW
// tensors go away?); auto keeps NCHW for fp32 and NHWC for the tensor-core precisions.
TEST(LayerChoices, TheLayoutFollowsThePrecisionUnlessForced) {
  const auto channels_last = [](std::initializer_list<const char*> arguments) {
    const ParsedCommandLine parsed = parse(arguments);
    EXPECT_TRUE(parsed.options.has_value()) << parsed.error;
    return parsed.options && resnet_channels_last(*parsed.options);
  };
  EXPECT_FALSE(channels_last({"resnet", "--precision", "fp32"}));
  EXPECT_TRUE(channels_last({"resnet", "--precision", "tf32"}));
  EXPECT_TRUE(channels_last({"resnet", "--precision", "bf16", "--layout", "auto"}));
  EXPECT_TRUE(channels_last({"resnet", "--precision", "fp32", "--layout", "nhwc"}));
  EXPECT_FALSE(channels_last({"resnet", "--precision", "tf32", "--layout", "nchw"}));
  const ParsedCommandLine bad = parse({"resnet", "--layout", "chwn"});
  EXPECT_FALSE(bad.options.has_value());
  EXPECT_EQ(bad.exit_code, exit_bad_input);
  EXPECT_NE(bad.error.find("--layout"), std::string::npos) << bad.error;
  RunSummary summary;
  summary.options.layout = "nhwc";
  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_STREQ(document["configuration"]["layout"].GetString(), "nhwc");
}

TEST(LayerChoices, AnUnknownValueIsBadInputNamingTheOption) {
  const ParsedCommandLine parsed = parse({"resnet", "--batch-norm", "fast"});
  EXPECT_FALSE(parsed.options.has_value());
  EXPECT_EQ(parsed.exit_code, exit_bad_input);
  EXPECT_NE(parsed.error.find("--batch-norm"), std::string::npos) << parsed.error;
  WorkloadOptions options;
  options.conv_algo = "fastest";
  try {
    layer_choices(options);
    FAIL() << "accepted --conv-algo fastest";
  } catch (const WorkloadError& error) {
    EXPECT_EQ(error.exit_code(), exit_bad_input);
    EXPECT_NE(std::string(error.what()).find("--conv-algo"), std::string::npos);
  }
}

// A/B runs are told apart by their summaries.
TEST(LayerChoices, TheRunSummaryRecordsBoth) {
  RunSummary summary;
  summary.options.conv_algo = "heuristic";
  summary.options.batch_norm = "legacy";
  rapidjson::Document document;
  document.Parse(summary_to_json(summary).c_str());
  ASSERT_FALSE(document.HasParseError());
  EXPECT_STREQ(document["configuration"]["conv_algo"].GetString(), "heuristic");
  EXPECT_STREQ(document["configuration"]["batch_norm"].GetString(), "legacy");
}

}  // namespace
}  // namespace gpuprof::workloads
