#include "gpuprof/collector/repeated_signal.hpp"

#include <gtest/gtest.h>

namespace gpuprof::collector {
namespace {

constexpr std::int64_t kFirst = 5'000'000'000'000;  // monotonic time of a machine up for ~1.4 h
constexpr std::int64_t kMillisecond = 1'000'000;
constexpr SignalOrigin kFromTheGroup{true, true};

TEST(RepeatedSignal, CopiesFromTheParentOrGroupWithinMomentsAreTheSameRequest) {
  EXPECT_TRUE(is_the_same_request(kFirst + kMillisecond, kFirst, kFromTheGroup));
  EXPECT_TRUE(is_the_same_request(kFirst + 1900 * kMillisecond, kFirst, kFromTheGroup));
}

TEST(RepeatedSignal, ALaterOneOrOneFromElsewhereMeansStopNow) {
  EXPECT_FALSE(is_the_same_request(kFirst + 3000 * kMillisecond, kFirst, kFromTheGroup));
  EXPECT_FALSE(is_the_same_request(kFirst + kMillisecond, kFirst, SignalOrigin{true, false}));
  // A second Ctrl-C at the terminal comes from the kernel: the user insists.
  EXPECT_FALSE(is_the_same_request(kFirst + kMillisecond, kFirst, SignalOrigin{false, true}));
}

// Two threads can run the handler at once: the second copy of a request reaches another
// thread while the first thread's handler has claimed the stop but not yet stamped its time.
// That copy came moments after the first, not 5000 s after a clock's zero.
TEST(RepeatedSignal, ACopyWhileTheFirstIsStillBeingTakenIsTheSameRequest) {
  EXPECT_TRUE(is_the_same_request(kFirst, 0, kFromTheGroup));
  EXPECT_FALSE(is_the_same_request(kFirst, 0, SignalOrigin{true, false}));
}

}  // namespace
}  // namespace gpuprof::collector
