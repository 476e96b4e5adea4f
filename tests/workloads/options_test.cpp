#include "options.hpp"

#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "layer_choices.hpp"
#include "workload_data.hpp"
#include "workload_error.hpp"

namespace gpuprof::workloads {
namespace {

ParsedCommandLine parse(std::vector<std::string> words) {
  words.insert(words.begin(), "gpuprof-workload");
  std::vector<const char*> argv;
  for (const auto& word : words) argv.push_back(word.c_str());
  return parse_command_line(static_cast<int>(argv.size()), argv.data());
}

TEST(Options, DefaultsAreAValidSmallRun) {
  const auto parsed = parse({"rnn"});
  ASSERT_TRUE(parsed.options);
  EXPECT_EQ(parsed.options->model, "rnn");
  EXPECT_EQ(parsed.options->cell, "gru");
  EXPECT_EQ(parsed.options->strategy, "single");
  EXPECT_NO_THROW(validate_options(*parsed.options));
}

TEST(Options, ReadsEveryKindOfOption) {
  const auto parsed = parse({"rnn", "--cell", "lstm", "--layers", "3", "--hidden", "64", "--seq-len", "20",
                             "--features", "8", "--classes", "6", "--dropout", "0.25", "--batch", "128",
                             "--steps", "40", "--host-memory", "pinned", "--prefetch", "2", "--loader-us",
                             "300", "--gpus", "all", "--strategy", "data-parallel", "--overlap-allreduce",
                             "--precision", "tf32", "--optimizer", "sgd", "--lr", "0.05", "--seed", "9",
                             "--summary", "out.json"});
  ASSERT_TRUE(parsed.options) << parsed.error;
  const WorkloadOptions& o = *parsed.options;
  EXPECT_EQ(o.cell, "lstm");
  EXPECT_EQ(o.layers, 3);
  EXPECT_EQ(o.hidden, 64);
  EXPECT_EQ(o.seq_len, 20);
  EXPECT_EQ(o.features, 8);
  EXPECT_EQ(o.classes, 6);
  EXPECT_DOUBLE_EQ(o.dropout, 0.25);
  EXPECT_EQ(o.batch, 128);
  EXPECT_EQ(o.steps, 40);
  EXPECT_EQ(o.host_memory, "pinned");
  EXPECT_EQ(o.prefetch, 2);
  EXPECT_EQ(o.loader_us, 300);
  EXPECT_EQ(o.gpus, "all");
  EXPECT_EQ(o.strategy, "data-parallel");
  EXPECT_TRUE(o.overlap_allreduce);
  EXPECT_EQ(o.precision, "tf32");
  EXPECT_EQ(o.optimizer, "sgd");
  EXPECT_DOUBLE_EQ(o.learning_rate, 0.05);
  EXPECT_EQ(o.seed, 9U);
  EXPECT_EQ(o.summary_path, "out.json");
  EXPECT_NO_THROW(validate_options(o));
}

TEST(Options, RejectsUnknownModelCellAndStrategy) {
  for (const auto& words : std::vector<std::vector<std::string>>{
           {"cnn"}, {"rnn", "--cell", "vanilla"}, {"rnn", "--strategy", "pipeline"},
           {"rnn", "--host-memory", "managed"}, {"rnn", "--bogus"}, {}}) {
    const auto parsed = parse(words);
    EXPECT_FALSE(parsed.options);
    EXPECT_NE(parsed.exit_code, 0);
    EXPECT_FALSE(parsed.error.empty());
    EXPECT_EQ(parsed.error.find('\n'), std::string::npos) << parsed.error;
  }
}

TEST(Options, EpochsAndStepsExcludeEachOther) {
  EXPECT_FALSE(parse({"rnn", "--epochs", "2", "--steps", "5"}).options);
}

TEST(Options, HelpIsNotAnError) {
  const auto parsed = parse({"--help"});
  EXPECT_FALSE(parsed.options);
  EXPECT_EQ(parsed.exit_code, 0);
  EXPECT_NE(parsed.output.find("--strategy"), std::string::npos);
}

void expect_invalid(const std::vector<std::string>& words, const std::string& mentions) {
  const auto parsed = parse(words);
  ASSERT_TRUE(parsed.options) << parsed.error;
  try {
    validate_options(*parsed.options);
    ADD_FAILURE() << "accepted " << mentions;
  } catch (const WorkloadError& error) {
    EXPECT_NE(std::string(error.what()).find(mentions), std::string::npos) << error.what();
  }
}

TEST(Options, RejectsImpossibleSizes) {
  expect_invalid({"rnn", "--batch", "0"}, "--batch");
  expect_invalid({"rnn", "--hidden", "-4"}, "--hidden");
  expect_invalid({"rnn", "--layers", "0"}, "--layers");
  expect_invalid({"rnn", "--classes", "1"}, "--classes");
  expect_invalid({"rnn", "--seq-len", "0"}, "--seq-len");
  expect_invalid({"rnn", "--dropout", "1"}, "--dropout");
  expect_invalid({"rnn", "--prefetch", "3"}, "--prefetch");
  expect_invalid({"rnn", "--batch", "512", "--train-samples", "100"}, "--train-samples");
  expect_invalid({"rnn", "--batch", "100000", "--train-samples", "200000", "--seq-len", "4000", "--hidden", "8000"},
                 "too large");
}

TEST(Options, ReadsTheTowersOptions) {
  const auto parsed = parse({"towers", "--users", "50", "--items", "60", "--vocab", "700", "--review-len", "40",
                             "--embedding", "32", "--filters", "20", "--kernel-size", "5", "--strategy",
                             "tower-parallel", "--gpus", "2", "--print-plan"});
  ASSERT_TRUE(parsed.options) << parsed.error;
  const WorkloadOptions& o = *parsed.options;
  EXPECT_EQ(o.model, "towers");
  EXPECT_EQ(o.users, 50);
  EXPECT_EQ(o.items, 60);
  EXPECT_EQ(o.vocab, 700);
  EXPECT_EQ(o.review_len, 40);
  EXPECT_EQ(o.embedding, 32);
  EXPECT_EQ(o.filters, 20);
  EXPECT_EQ(o.kernel_size, 5);
  EXPECT_EQ(o.strategy, "tower-parallel");
  EXPECT_TRUE(o.print_plan);
  EXPECT_NO_THROW(validate_options(o));
}

TEST(Options, EveryBuiltModelIsValidWithDefaults) {
  for (const char* model : {"rnn", "towers", "mlp", "resnet"}) {
    const auto parsed = parse({model});
    ASSERT_TRUE(parsed.options) << parsed.error;
    EXPECT_NO_THROW(validate_options(*parsed.options)) << model;
  }
}

TEST(Options, ResnetDefaultsTo285ClassesUnlessAsked) {
  const auto defaults = parse({"resnet"});
  ASSERT_TRUE(defaults.options) << defaults.error;
  EXPECT_EQ(defaults.options->classes, 285);
  EXPECT_EQ(defaults.options->depth, 50);
  EXPECT_EQ(defaults.options->image_size, 224);
  const auto asked = parse({"resnet", "--classes", "10", "--depth", "18", "--image-size", "64"});
  ASSERT_TRUE(asked.options) << asked.error;
  EXPECT_EQ(asked.options->classes, 10);
  EXPECT_EQ(asked.options->depth, 18);
  EXPECT_EQ(asked.options->image_size, 64);
  EXPECT_NO_THROW(validate_options(*asked.options));
  EXPECT_EQ(parse({"rnn"}).options->classes, 4);
}

TEST(Options, LoaderThreadsDefaultToFourAndAreBounded) {
  EXPECT_EQ(parse({"resnet"}).options->loader_threads, 4);
  EXPECT_EQ(parse({"resnet", "--loader-threads", "1"}).options->loader_threads, 1);
  expect_invalid({"resnet", "--loader-threads", "0"}, "--loader-threads");
  expect_invalid({"rnn", "--loader-threads", "65"}, "--loader-threads");
}

TEST(Options, RefusesImpossibleResnetSettings) {
  expect_invalid({"resnet", "--depth", "20"}, "--depth must be 18, 34 or 50");
  expect_invalid({"resnet", "--image-size", "16"}, "--image-size");
  expect_invalid({"resnet", "--strategy", "host-staged", "--gpus", "2"}, "not available for the resnet model");
  expect_invalid({"resnet", "--batch", "4096", "--train-samples", "10000"}, "too large");
}

TEST(Options, RefusesStrategiesTheModelDoesNotHave) {
  expect_invalid({"rnn", "--strategy", "tower-parallel", "--gpus", "2"}, "not available for the rnn model");
  expect_invalid({"mlp", "--strategy", "alternate", "--gpus", "2"}, "not available for the mlp model");
  expect_invalid({"towers", "--strategy", "host-staged"}, "not available for the towers model");
}

TEST(Options, RefusesPlacementsOnOneGpuOrTooMany) {
  expect_invalid({"towers", "--strategy", "tower-parallel"}, "needs --gpus 2 or more");
  expect_invalid({"towers", "--strategy", "alternate", "--gpus", "1"}, "needs --gpus 2 or more");
  expect_invalid({"towers", "--strategy", "tower-parallel", "--gpus", "4"}, "at most 3 GPUs");
  expect_invalid({"towers", "--strategy", "alternate", "--gpus", "6"}, "at most 5 GPUs");
}

TEST(Options, RefusesImpossibleTowersSizes) {
  expect_invalid({"towers", "--kernel-size", "50", "--review-len", "40"}, "--kernel-size 50 is longer");
  expect_invalid({"towers", "--vocab", "3"}, "--vocab");
  expect_invalid({"towers", "--filters", "0"}, "--filters");
  expect_invalid({"towers", "--embedding", "0"}, "--embedding");
  expect_invalid({"towers", "--users", "1"}, "--users");
}

TEST(Options, AcceptsEveryPrecisionForEveryModelAndRefusesOthers) {
  for (const char* model : {"rnn", "towers", "mlp", "resnet"}) {
    for (const char* precision : {"fp32", "tf32", "bf16"}) {
      const auto parsed = parse({model, "--precision", precision});
      ASSERT_TRUE(parsed.options) << model << " " << precision << ": " << parsed.error;
      EXPECT_EQ(parsed.options->precision, precision);
      EXPECT_NO_THROW(validate_options(*parsed.options)) << model << " " << precision;
    }
  }
  EXPECT_FALSE(parse({"rnn", "--precision", "fp16"}).options);
}

TEST(Options, ResnetIsChannelsLastWithTensorCores) {
  for (const auto& [precision, channels_last] :
       std::vector<std::pair<std::string, bool>>{{"fp32", false}, {"tf32", true}, {"bf16", true}}) {
    WorkloadOptions options;
    options.precision = precision;
    EXPECT_EQ(resnet_channels_last(options), channels_last) << precision;
  }
}

}  // namespace
}  // namespace gpuprof::workloads

namespace gpuprof::workloads {
namespace {

TEST(Options, TheNewPathsAreTheDefaultsAndTheOldOnesAFlagAway) {
  const auto defaults = parse({"rnn"});
  ASSERT_TRUE(defaults.options);
  EXPECT_EQ(defaults.options->loader, "pool");
  EXPECT_EQ(defaults.options->host_memory, "pinned");
  EXPECT_EQ(defaults.options->prefetch, 2);
  EXPECT_EQ(defaults.options->rnn_algo, "auto");
  EXPECT_FALSE(defaults.options->warmup_steps);
  const auto old = parse({"rnn", "--loader", "inline", "--host-memory", "pageable", "--prefetch", "0",
                          "--rnn-algo", "standard", "--warmup-steps", "0"});
  ASSERT_TRUE(old.options) << old.error;
  EXPECT_EQ(old.options->loader, "inline");
  EXPECT_EQ(old.options->rnn_algo, "standard");
  EXPECT_EQ(old.options->warmup_steps, 0);
  EXPECT_NO_THROW(validate_options(*old.options));
  EXPECT_EQ(parse({"rnn", "--rnn-algo", "persistent"}).exit_code, exit_bad_input);
  EXPECT_EQ(parse({"rnn", "--loader", "threads"}).exit_code, exit_bad_input);
}

// --cuda-graphs is off until a GPU shows it helps; on and auto are asked for, anything else refused.
TEST(Options, CudaGraphsAreOffByDefaultAndAskedForByName) {
  const auto defaults = parse({"rnn"});
  ASSERT_TRUE(defaults.options) << defaults.error;
  EXPECT_EQ(defaults.options->cuda_graphs, "off");
  for (const char* mode : {"on", "auto", "off"}) {
    const auto parsed = parse({"rnn", "--cuda-graphs", mode});
    ASSERT_TRUE(parsed.options) << parsed.error;
    EXPECT_EQ(parsed.options->cuda_graphs, mode);
  }
  EXPECT_EQ(parse({"rnn", "--cuda-graphs", "yes"}).exit_code, exit_bad_input);
}

TEST(Options, AWarmupThatLeavesNoTimedStepIsRefusedInOneLine) {
  const auto parsed = parse({"rnn", "--steps", "10", "--warmup-steps", "10"});
  ASSERT_TRUE(parsed.options) << parsed.error;
  try {
    validate_options(*parsed.options);
    FAIL() << "accepted";
  } catch (const WorkloadError& error) {
    EXPECT_EQ(error.exit_code(), exit_bad_input);
    EXPECT_EQ(std::string(error.what()), "--warmup-steps 10 leaves no timed step: the run trains 10 steps; use "
                                         "--warmup-steps 9 or fewer, or more --steps");
  }
  EXPECT_NO_THROW(validate_options(*parse({"rnn", "--steps", "10", "--warmup-steps", "9"}).options));
  EXPECT_THROW(validate_options(*parse({"rnn", "--warmup-steps", "-1"}).options), WorkloadError);
  // Under --epochs: 2 epochs of 8192 / 64 = 128 steps.
  EXPECT_THROW(validate_options(*parse({"rnn", "--warmup-steps", "256"}).options), WorkloadError);
  EXPECT_NO_THROW(validate_options(*parse({"rnn", "--warmup-steps", "255"}).options));
}

TEST(Options, TheDefaultWarmupIsTenButNeverTheWholeRun) {
  const WorkloadOptions defaults = *parse({"rnn"}).options;
  EXPECT_EQ(planned_training_steps(defaults), 256);
  EXPECT_EQ(warmup_steps_for(defaults, 256), 10);
  EXPECT_EQ(warmup_steps_for(defaults, 5), 4) << "step 0 is still left out";
  EXPECT_EQ(warmup_steps_for(defaults, 1), 0);
  EXPECT_EQ(warmup_steps_for(*parse({"rnn", "--warmup-steps", "3"}).options, 256), 3);
  EXPECT_EQ(planned_training_steps(*parse({"rnn", "--steps", "40"}).options), 40);
}

}  // namespace
}  // namespace gpuprof::workloads
