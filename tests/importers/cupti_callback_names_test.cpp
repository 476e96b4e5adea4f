#include <gtest/gtest.h>

#include <iterator>
#include <string_view>

#include "cupti_callback_names.hpp"

// The copy committed for builds without the CUDA toolkit...
namespace committed {
#include GPUPROF_COMMITTED_CBID_NAMES
}  // namespace committed

#ifdef GPUPROF_BUILT_CBID_NAMES
// ...and the tables this build generated from the installed CUPTI headers.
namespace built {
#include GPUPROF_BUILT_CBID_NAMES
}  // namespace built
#endif

namespace gpuprof::importers {
namespace {

template <std::size_t A, std::size_t B>
void expect_same_table(const std::string_view (&expected)[A], const std::string_view (&actual)[B], const char* what) {
  ASSERT_EQ(A, B) << what << ": regenerate analyzer/importers/generated/cupti_callback_names.inc "
                             "(cmake -P cmake/GenerateCuptiCallbackNames.cmake, see the file's header)";
  for (std::size_t id = 0; id < A; ++id) EXPECT_EQ(expected[id], actual[id]) << what << " callback id " << id;
}

TEST(CuptiCallbackNames, CommittedCopyMatchesTheInstalledHeaders) {
#ifdef GPUPROF_BUILT_CBID_NAMES
  expect_same_table(built::kRuntimeCallbackNames, committed::kRuntimeCallbackNames, "runtime");
  expect_same_table(built::kDriverCallbackNames, committed::kDriverCallbackNames, "driver");
#else
  GTEST_SKIP() << "no CUPTI headers in this build: nothing to compare the committed copy with";
#endif
}

TEST(CuptiCallbackNames, LookupDropsRuntimeVersionSuffixesAndRejectsOutOfRangeIds) {
  EXPECT_EQ(runtime_callback_name(211), "cudaLaunchKernel");  // header: cudaLaunchKernel_v7000
  EXPECT_EQ(runtime_callback_name(1), "cudaDriverGetVersion");
  EXPECT_EQ(driver_callback_name(243), "cuMemAlloc_v2");  // the driver symbol's own name keeps _v2
  EXPECT_EQ(runtime_callback_name(0), "");                // CBID_INVALID
  EXPECT_EQ(runtime_callback_name(-1), "");
  EXPECT_EQ(runtime_callback_name(std::size(committed::kRuntimeCallbackNames) + 1000), "");
  EXPECT_EQ(driver_callback_name(INT64_MAX), "");
}

}  // namespace
}  // namespace gpuprof::importers
