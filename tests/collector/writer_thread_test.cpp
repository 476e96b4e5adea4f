#include "gpuprof/collector/writer_thread.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <set>
#include <thread>
#include <vector>

#include "cupti_record_builders.hpp"
#include "gpuprof/collector/activity_translator.hpp"
#include "gpuprof/collector/buffer_pool.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::collector {
namespace {

constexpr std::size_t kRecordsPerBuffer = 16;
constexpr std::size_t kBufferBytes = kRecordsPerBuffer * sizeof(CUpti_ActivityKernel10);

// Buffers here hold kernel records back to back (real CUPTI buffers are walked
// with cuptiActivityGetNextRecord, which needs libcupti).
void fill_buffer(std::uint8_t* buffer, std::uint32_t first_correlation) {
  for (std::size_t i = 0; i < kRecordsPerBuffer; ++i) {
    const auto record = gpuprof::testing::kernel_record("flood_kernel", 1000 + i, 2000 + i,
                                                        first_correlation + static_cast<std::uint32_t>(i));
    std::memcpy(buffer + i * sizeof record, &record, sizeof record);
  }
}

TEST(WriterThreadTest, AFloodOfBuffersFromManyThreadsLosesNothing) {
  gpuprof::testing::TemporaryFolder folder;
  const auto path = folder.file("flood.sqlite");
  trace::WriterOptions options;
  options.path = path;
  options.durability = trace::Durability::crash_safe;
  trace::TraceWriter writer(options);
  ActivityTranslator translator(writer, {});
  BufferPool pool(kBufferBytes, 8);
  std::atomic<int> batches{0};
  BatchHandler handler;
  handler.on_buffer = [&](const CompletedBuffer& buffer) {
    for (std::size_t offset = 0; offset + sizeof(CUpti_ActivityKernel10) <= buffer.valid_bytes;
         offset += sizeof(CUpti_ActivityKernel10)) {
      translator.translate(*reinterpret_cast<const CUpti_Activity*>(buffer.data + offset));
    }
  };
  handler.on_batch_end = [&] {
    translator.end_batch();
    writer.flush();
    ++batches;
  };
  handler.release = [&](std::uint8_t* buffer, std::size_t used) { pool.release(buffer, used); };
  WriterThread thread(handler);

  constexpr int kThreads = 8, kBuffersPerThread = 100;
  std::vector<std::thread> producers;
  for (int t = 0; t < kThreads; ++t) {
    producers.emplace_back([&, t] {
      for (int b = 0; b < kBuffersPerThread; ++b) {
        std::uint8_t* buffer = nullptr;
        // The pool never blocks; a producer that finds it empty tries again, as CUPTI would later.
        while ((buffer = pool.acquire()) == nullptr) std::this_thread::yield();
        fill_buffer(buffer, static_cast<std::uint32_t>((t * kBuffersPerThread + b) * kRecordsPerBuffer));
        thread.submit({buffer, kBufferBytes});
      }
    });
  }
  for (auto& producer : producers) producer.join();
  thread.drain();
  EXPECT_EQ(thread.buffers_handled(), std::uint64_t{kThreads * kBuffersPerThread});
  EXPECT_FALSE(thread.failed());
  EXPECT_EQ(pool.buffers_free(), 8u);
  thread.stop();
  translator.finish();
  writer.finish();

  const auto model = trace::load_trace_model(path);
  const std::size_t expected = kThreads * kBuffersPerThread * kRecordsPerBuffer;
  ASSERT_EQ(model.kernels.size(), expected);
  const std::set<std::int64_t> correlations(model.kernels.correlation_id.begin(), model.kernels.correlation_id.end());
  EXPECT_EQ(correlations.size(), expected);
  EXPECT_EQ(*correlations.begin(), 0);
  EXPECT_EQ(*correlations.rbegin(), static_cast<std::int64_t>(expected - 1));
  EXPECT_GE(batches.load(), 1);
}

TEST(WriterThreadTest, AFailingHandlerStopsTranslationButStillReleasesBuffers) {
  BufferPool pool(1024, 4);
  std::atomic<int> failures{0}, translated{0};
  BatchHandler handler;
  handler.on_buffer = [&](const CompletedBuffer&) {
    ++translated;
    throw std::runtime_error("disk full");
  };
  handler.release = [&](std::uint8_t* buffer, std::size_t used) { pool.release(buffer, used); };
  handler.on_failure = [&](const std::string& problem) {
    EXPECT_EQ(problem, "disk full");
    ++failures;
  };
  WriterThread thread(handler);
  for (int i = 0; i < 3; ++i) {
    thread.submit({pool.acquire(), 16});
    thread.drain();
  }
  thread.stop();
  EXPECT_TRUE(thread.failed());
  EXPECT_EQ(failures.load(), 1);
  EXPECT_EQ(translated.load(), 1);
  EXPECT_EQ(pool.buffers_free(), 4u);
}

TEST(BufferPoolTest, HandsOutAtMostItsBuffersAndCountsRefusals) {
  BufferPool pool(1000, 2);
  EXPECT_EQ(pool.buffer_size(), 1000u);
  auto* first = pool.acquire();
  auto* second = pool.acquire();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(first, second);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(first) % 8, 0u);
  EXPECT_EQ(pool.acquire(), nullptr);
  EXPECT_EQ(pool.requests_refused(), 1u);
  pool.release(first);
  EXPECT_EQ(pool.acquire(), first);
  EXPECT_EQ(pool.buffers_handed_out(), 3u);
}

// CUPTI is told buffers come zeroed, so it does not zero them on the program's threads.
TEST(BufferPoolTest, BuffersComeBackZeroedAndAreAllocatedOnlyWhenNeeded) {
  BufferPool pool(4096, 64);
  EXPECT_EQ(pool.buffers_allocated(), 0u);
  auto* buffer = pool.acquire();
  ASSERT_NE(buffer, nullptr);
  EXPECT_EQ(pool.buffers_allocated(), 1u);
  EXPECT_EQ(pool.buffers_outstanding(), 1u);
  std::memset(buffer, 0xAB, 100);
  pool.release(buffer, 100);
  EXPECT_EQ(pool.buffers_outstanding(), 0u);
  auto* again = pool.acquire();
  ASSERT_EQ(again, buffer);
  for (int i = 0; i < 4096; ++i) ASSERT_EQ(again[i], 0) << i;
  EXPECT_EQ(pool.buffers_allocated(), 1u);
}

TEST(BufferPoolTest, AClosedPoolHandsOutNothingAndCountsTheRequests) {
  BufferPool pool(4096, 4);
  pool.close();
  EXPECT_EQ(pool.acquire(), nullptr);
  EXPECT_EQ(pool.requests_after_close(), 1u);
  EXPECT_EQ(pool.requests_refused(), 0u);
}

TEST(BufferPoolTest, RoundsSizesToCuptiAlignment) { EXPECT_EQ(BufferPool(1001, 1).buffer_size(), 1008u); }

}  // namespace
}  // namespace gpuprof::collector
