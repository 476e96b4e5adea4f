#include "recurrent_algorithm.hpp"

#include <gtest/gtest.h>

namespace gpuprof::workloads {
namespace {

// The default rnn workload (GRU, 2 layers, hidden 128, 16 features, 32 steps) at batch 256 on an H200.
RecurrentAlgorithmQuery default_gru_on_h200() {
  RecurrentAlgorithmQuery q;
  q.inputs = 16;
  q.hidden = 128;
  q.layers = 2;
  q.seq_len = 32;
  q.batch = 256;
  q.compute_major = 9;
  q.compute_minor = 0;
  q.multiprocessors = 132;
  return q;
}

TEST(RecurrentAlgorithm, SmallHiddenSizesGetTheSmallHPersistentKernel) {
  for (const bool lstm : {false, true}) {
    for (const bool bf16 : {false, true}) {
      RecurrentAlgorithmQuery q = default_gru_on_h200();
      q.lstm = lstm;
      q.half_width_data = bf16;
      EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::persist_static_small_h);
    }
  }
}

TEST(RecurrentAlgorithm, StandardWhenAskedWhateverTheShape) {
  RecurrentAlgorithmQuery q = default_gru_on_h200();
  q.automatic = false;
  const RecurrentAlgorithmChoice choice = choose_recurrent_algorithm(q);
  EXPECT_EQ(choice.algorithm, RecurrentAlgorithm::standard);
  EXPECT_EQ(choice.reason, "--rnn-algo standard");
}

TEST(RecurrentAlgorithm, HiddenAboveTheBackwardLimitIsStandardInFp32) {
  RecurrentAlgorithmQuery q = default_gru_on_h200();
  q.hidden = 129;
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::standard);
  q.hidden = 512;
  q.lstm = true;
  q.inputs = 512;
  q.layers = 1;
  q.batch = 64;
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::standard) << "fp32 data";
}

TEST(RecurrentAlgorithm, PersistStaticForBf16LstmWhereItMeasuredFaster) {
  RecurrentAlgorithmQuery q = default_gru_on_h200();
  q.lstm = true;
  q.half_width_data = true;
  q.hidden = 512;
  q.inputs = 256;
  q.layers = 1;
  q.batch = 64;
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::persist_static);
  RecurrentAlgorithmQuery gru = q;
  gru.lstm = false;
  EXPECT_EQ(choose_recurrent_algorithm(gru).algorithm, RecurrentAlgorithm::standard) << "GRU left standard";
  RecurrentAlgorithmQuery big_batch = q;
  big_batch.batch = 256;
  EXPECT_EQ(choose_recurrent_algorithm(big_batch).algorithm, RecurrentAlgorithm::standard);
  RecurrentAlgorithmQuery two_layers = q;
  two_layers.layers = 2;
  EXPECT_EQ(choose_recurrent_algorithm(two_layers).algorithm, RecurrentAlgorithm::standard);
  RecurrentAlgorithmQuery odd_inputs = q;
  odd_inputs.inputs = 200;
  EXPECT_EQ(choose_recurrent_algorithm(odd_inputs).algorithm, RecurrentAlgorithm::standard);
  RecurrentAlgorithmQuery sm86 = q;
  sm86.compute_major = 8;
  sm86.compute_minor = 6;
  EXPECT_EQ(choose_recurrent_algorithm(sm86).algorithm, RecurrentAlgorithm::standard);
  RecurrentAlgorithmQuery few_sms = q;
  few_sms.compute_major = 8;
  few_sms.multiprocessors = 56;
  EXPECT_EQ(choose_recurrent_algorithm(few_sms).algorithm, RecurrentAlgorithm::standard);
}

TEST(RecurrentAlgorithm, VoltaPersistStaticDependsOnBatchAndLength) {
  RecurrentAlgorithmQuery q = default_gru_on_h200();
  q.half_width_data = true;
  q.hidden = 256;
  q.inputs = 128;
  q.layers = 1;
  q.compute_major = 7;
  q.compute_minor = 0;
  q.multiprocessors = 80;
  q.seq_len = 40;
  q.batch = 128;
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::persist_static);
  q.batch = 112;  // a multiple of 16 that measured slow
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::standard);
  q.batch = 64;
  q.seq_len = 15;  // too short for batch 64
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::standard);
  q.compute_minor = 5;  // Turing
  q.seq_len = 40;
  EXPECT_EQ(choose_recurrent_algorithm(q).algorithm, RecurrentAlgorithm::standard);
}

TEST(RecurrentAlgorithm, NoPersistentKernelBeforePascal) {
  RecurrentAlgorithmQuery q = default_gru_on_h200();
  q.compute_major = 5;
  q.compute_minor = 2;
  const RecurrentAlgorithmChoice choice = choose_recurrent_algorithm(q);
  EXPECT_EQ(choice.algorithm, RecurrentAlgorithm::standard);
  EXPECT_EQ(choice.reason, "no persistent kernels before sm_60");
}

TEST(RecurrentAlgorithm, NamesAreCudnnsWithoutThePrefix) {
  EXPECT_STREQ(recurrent_algorithm_name(RecurrentAlgorithm::standard), "standard");
  EXPECT_STREQ(recurrent_algorithm_name(RecurrentAlgorithm::persist_static), "persist_static");
  EXPECT_STREQ(recurrent_algorithm_name(RecurrentAlgorithm::persist_static_small_h), "persist_static_small_h");
}

}  // namespace
}  // namespace gpuprof::workloads
