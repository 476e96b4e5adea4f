#include "batch_loader_pool.hpp"

#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "sequence_dataset.hpp"

namespace gpuprof::workloads {
namespace {

// Host buffers for `slots` batches of the rnn's sequences.
struct Buffers {
  Buffers(const SampleSource& source, int batch, int slots) {
    const SampleShape shape = source.shape();
    for (int i = 0; i < slots; ++i) {
      inputs.emplace_back(static_cast<std::size_t>(batch) * shape.inputs);
      ints.emplace_back(static_cast<std::size_t>(batch) * shape.ints);
    }
    for (int i = 0; i < slots; ++i) views.push_back({inputs[i].data(), nullptr, ints[i].data()});
  }
  std::vector<std::vector<float>> inputs;
  std::vector<std::vector<std::int32_t>> ints;
  std::vector<HostBatchView> views;
};

struct Batch {
  std::vector<float> inputs;
  std::vector<std::int32_t> labels;
  bool operator==(const Batch&) const = default;
};

constexpr int batch_size = 16;

BatchSchedule schedule(int total_steps, int replica = 0) {
  // 200 samples, global batch 32 of two replicas: 6 steps per epoch, so steps cross epochs.
  return BatchSchedule{replica, batch_size, 2 * batch_size, 200 / (2 * batch_size), total_steps, 5, 0};
}

// Every batch of the run, read as the training thread would: wait, copy out, release.
std::vector<Batch> read_all(const SampleSource& source, int threads, int slots, int steps, int replica = 0) {
  Buffers buffers(source, batch_size, slots);
  BatchLoaderPool pool(source, schedule(steps, replica), buffers.views, threads, 2);
  std::vector<Batch> batches;
  const SampleShape shape = source.shape();
  for (int step = 0; step < steps; ++step) {
    const HostBatchView& view = pool.wait(step);
    batches.push_back({std::vector<float>(view.inputs, view.inputs + batch_size * shape.inputs),
                       std::vector<std::int32_t>(view.ints, view.ints + batch_size * shape.ints)});
    pool.release(step);
  }
  return batches;
}

class BatchLoaderPoolTest : public ::testing::Test {
 protected:
  SequenceData data = generate_sequence_data({200, 10, 6, 3, 4, 11});
  SequenceSamples source{data.train};
};

TEST_F(BatchLoaderPoolTest, SameSeedSameBatchesWithOneAndFourThreadsAndInline) {
  const std::vector<Batch> one = read_all(source, 1, 2, 20);
  const std::vector<Batch> four = read_all(source, 4, 6, 20);
  const std::vector<Batch> inline_loader = read_all(source, 0, 1, 20);
  ASSERT_EQ(one.size(), 20U);
  EXPECT_EQ(one, four);
  EXPECT_EQ(one, inline_loader);
  EXPECT_NE(one[0], one[1]);
  EXPECT_NE(one[0], one[6]) << "the next epoch is shuffled again";
}

TEST_F(BatchLoaderPoolTest, ReplicasReadTheirOwnShareOfTheGlobalBatch) {
  const std::vector<Batch> first = read_all(source, 2, 3, 6, 0);
  const std::vector<Batch> second = read_all(source, 2, 3, 6, 1);
  for (std::size_t i = 0; i < first.size(); ++i) EXPECT_NE(first[i], second[i]);
}

// A source whose `bad`-th read throws, as a corrupt file would.
class FailingSource : public SampleSource {
 public:
  FailingSource(const SampleSource& inner, int bad) : inner_(inner), bad_(bad) {}
  int samples() const override { return inner_.samples(); }
  SampleShape shape() const override { return inner_.shape(); }
  void write_sample(int index, float* inputs, float* targets, std::int32_t* ints) const override {
    if (++reads_ == bad_) throw std::runtime_error("unreadable sample");
    inner_.write_sample(index, inputs, targets, ints);
  }

 private:
  const SampleSource& inner_;
  int bad_;
  mutable std::atomic<int> reads_{0};
};

TEST_F(BatchLoaderPoolTest, ALoadersErrorReachesTheTrainingThreadWithoutAHang) {
  for (const int threads : {0, 1, 4}) {
    const FailingSource failing(source, 40);  // in the third batch
    auto outcome = std::async(std::launch::async, [&] {
      Buffers buffers(failing, batch_size, 5);
      BatchLoaderPool pool(failing, schedule(12), buffers.views, threads);
      try {
        for (int step = 0; step < 12; ++step) {
          pool.wait(step);
          pool.release(step);
        }
      } catch (const std::runtime_error& error) {
        return std::string(error.what());
      }
      return std::string("no error");
    });
    ASSERT_EQ(outcome.wait_for(std::chrono::seconds(60)), std::future_status::ready) << threads << " threads hung";
    EXPECT_EQ(outcome.get(), "unreadable sample") << threads << " threads";
  }
}

TEST_F(BatchLoaderPoolTest, ShutdownWhileLoadersWaitForAFreeSlotDoesNotHang) {
  auto outcome = std::async(std::launch::async, [&] {
    Buffers buffers(source, batch_size, 2);
    BatchLoaderPool pool(source, schedule(50), buffers.views, 4);
    pool.wait(0);  // never released: every loader thread ends up waiting for a slot
    return true;
  });
  ASSERT_EQ(outcome.wait_for(std::chrono::seconds(60)), std::future_status::ready);
  EXPECT_TRUE(outcome.get());
}

TEST_F(BatchLoaderPoolTest, OutOfOrderUseIsRefusedNotRaced) {
  Buffers buffers(source, batch_size, 2);
  BatchLoaderPool pool(source, schedule(10), buffers.views, 1);
  EXPECT_THROW(pool.wait(1), std::logic_error);
  pool.wait(0);
  pool.wait(1);
  EXPECT_THROW(pool.wait(2), std::logic_error) << "slot of step 0 not released";
  EXPECT_THROW(pool.release(1), std::logic_error);
  pool.release(0);
  EXPECT_NO_THROW(pool.wait(2));
}

}  // namespace
}  // namespace gpuprof::workloads
