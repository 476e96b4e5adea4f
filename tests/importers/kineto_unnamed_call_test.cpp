// Kineto writes "INVALID" for a runtime callback id its table cannot name (cbid 409 with CUDA 12, as in the
// shared DLRM traces); the import lists such a call by its id, never as an API called INVALID, and keeps it
// (its correlation still links the work it launched).

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

TEST(KinetoUnnamedCall, InvalidIsListedByItsCallbackId) {
  testing::TemporaryFolder folder;
  const auto input = folder.file("trace.json");
  testing::write_file(input, R"j({"traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "k", "pid": 0, "tid": 7, "ts": 1000, "dur": 2,
      "args": {"device": 0, "stream": 7, "correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "INVALID", "pid": 1, "tid": 1, "ts": 995, "dur": 0,
      "args": {"cbid": 409, "correlation": 1}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 996, "dur": 1,
      "args": {"correlation": 2}}]})j");
  const auto output = folder.file("trace.sqlite");
  testing::import_file(input, output);
  const auto model = trace::load_trace_model(output);
  std::vector<std::string> names;
  for (const auto id : model.api_calls.name) names.push_back(model.strings.at(id));
  ASSERT_EQ(names.size(), 2u);
  EXPECT_EQ(std::count(names.begin(), names.end(), "INVALID"), 0);
  EXPECT_EQ(std::count(names.begin(), names.end(), "unnamed call (cbid 409)"), 1);
  EXPECT_EQ(std::count(names.begin(), names.end(), "cudaLaunchKernel"), 1);
}

}  // namespace
}  // namespace gpuprof
