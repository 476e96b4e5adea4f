// The Kineto reader recurses per nesting level (RapidJSON's recursive parser),
// so its depth limit is what keeps a hostile file from overflowing the stack:
// read on a thread with a small stack, a file nested to the limit is read and
// a file nested 250,000 levels deep is refused, both without a crash.
#include <gtest/gtest.h>
#include <pthread.h>

#include <fstream>
#include <functional>
#include <string>

#include "gpuprof/trace/trace_error.hpp"
#include "kineto_reader.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

class Counter final : public importers::KinetoEventConsumer {
 public:
  void consume(const importers::KinetoEvent&) override { ++events; }
  void malformed_element() override {}
  int events = 0;
};

// Runs `work` on a thread of `stack_bytes` of stack (a crash there fails the test binary).
void run_with_stack(std::size_t stack_bytes, std::function<void()> work) {
  pthread_attr_t attributes;
  ASSERT_EQ(pthread_attr_init(&attributes), 0);
  ASSERT_EQ(pthread_attr_setstacksize(&attributes, stack_bytes), 0);
  pthread_t thread;
  const auto body = [](void* argument) -> void* {
    (*static_cast<std::function<void()>*>(argument))();
    return nullptr;
  };
  ASSERT_EQ(pthread_create(&thread, &attributes, body, &work), 0);
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attributes);
}

// One event whose args nest `levels` arrays deep (the event itself is at depth 3).
std::string nested_trace(const testing::TemporaryFolder& folder, int levels) {
  const auto path = folder.file("nested_" + std::to_string(levels) + ".json");
  std::ofstream(path) << R"({"traceEvents": [{"ph": "X", "cat": "kernel", "name": "k", "ts": 1, "dur": 2, )"
                      << R"("args": {"x": )" << std::string(levels, '[') << std::string(levels, ']') << "}}]}";
  return path;
}

constexpr std::size_t kSmallStack = 512 * 1024;

// Reads `path` on a thread with a small stack; returns the problem reported, or "".
std::string read_on_small_stack(const std::string& path, Counter& counter) {
  std::string problem;
  run_with_stack(kSmallStack, [&] {
    try {
      importers::read_kineto(path, counter);
    } catch (const TraceError& error) {
      problem = error.problem();
    }
  });
  return problem;
}

TEST(KinetoDepth, NestingUpToTheLimitIsReadOnASmallStack) {
  testing::TemporaryFolder folder;
  Counter counter;
  // The event's own levels: the document, traceEvents, the event and its args.
  EXPECT_EQ(read_on_small_stack(nested_trace(folder, importers::kMaxKinetoJsonDepth - 4), counter), "");
  EXPECT_EQ(counter.events, 1);
}

TEST(KinetoDepth, DeeperNestingIsRefusedWithoutRecursingFurther) {
  testing::TemporaryFolder folder;
  for (const int levels : {importers::kMaxKinetoJsonDepth - 3, 250'000}) {
    Counter counter;
    const auto problem = read_on_small_stack(nested_trace(folder, levels), counter);
    EXPECT_NE(problem.find("nests JSON deeper than 512 levels"), std::string::npos) << levels << ": " << problem;
  }
}

}  // namespace
}  // namespace gpuprof
