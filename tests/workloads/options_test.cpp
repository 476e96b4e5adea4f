#include "options.hpp"

#include <string>
#include <vector>

#include <gtest/gtest.h>

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

TEST(Options, RefusesBf16Clearly) { expect_invalid({"rnn", "--precision", "bf16"}, "bf16 is not implemented"); }

}  // namespace
}  // namespace gpuprof::workloads
