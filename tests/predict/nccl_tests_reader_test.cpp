#include <gtest/gtest.h>

#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {
namespace {

// nccl-tests before 2.11: `error` column, no `root`; here behind an MPI prefix.
constexpr const char* kOldLayout = R"([1,0]<stdout>:# nThread 1 nGpus 1 minBytes 1024 maxBytes 4096 step: 2(factor)
[1,0]<stdout>:#   Rank  0 Pid  1 on node-0 device  0 [0x00] A100-SXM4-40GB
[1,0]<stdout>:#   Rank  1 Pid  2 on node-0 device  1 [0x00] A100-SXM4-40GB
[1,0]<stdout>:#
[1,0]<stdout>:#                                                       out-of-place                       in-place
[1,0]<stdout>:#       size         count      type   redop     time   algbw   busbw  error     time   algbw   busbw  error
[1,0]<stdout>:#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
[1,0]<stdout>:        1024           256     float     sum    10.00    0.10    0.10    N/A    12.00    0.09    0.09    N/A
[1,0]<stdout>:     1048576        262144     float     sum    60.00   17.48   17.48  0e+00    62.00   16.91   16.91  0e+00
[1,0]<stdout>:# Avg bus bandwidth    : 8.6
)";

// nccl-tests 2.11 and later: a `root` column and `#wrong` instead of `error`.
constexpr const char* kNewLayout = R"(# nThread 1 nGpus 4 minBytes 8 maxBytes 1048576 step: 1024(factor)
#  Rank  0 Group  0 Pid  9 on host device  0 [0000:07:00] NVIDIA H100 80GB HBM3
#  Rank  1 Group  0 Pid  9 on host device  1 [0000:08:00] NVIDIA H100 80GB HBM3
#  Rank  2 Group  0 Pid  9 on host device  2 [0000:09:00] NVIDIA H100 80GB HBM3
#  Rank  3 Group  0 Pid  9 on host device  3 [0000:0a:00] NVIDIA H100 80GB HBM3
#
#                                                              out-of-place                       in-place
#       size         count      type   redop    root     time   algbw   busbw #wrong     time   algbw   busbw #wrong
#        (B)    (elements)                               (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)
           8             2     float     sum      -1    20.00    0.00    0.00      0    22.00    0.00    0.00      0
     1048576        262144     float     sum      -1    40.00   26.21   39.32      0    40.00   26.21   39.32      0
)";

TEST(NcclTestsReader, ReadsTheOlderLayoutBehindMpiPrefixes) {
  const auto table = parse_nccl_tests(kOldLayout, "old.log");
  EXPECT_EQ(table.gpus, 2);
  ASSERT_EQ(table.points.size(), 2u);
  EXPECT_EQ(table.points[1].bytes, 1048576);
  EXPECT_DOUBLE_EQ(table.points[1].time_ns, 61'000.0);
}

TEST(NcclTestsReader, ReadsTheNewerLayoutWithRootAndWrongColumns) {
  const auto table = parse_nccl_tests(kNewLayout, "new.log");
  EXPECT_EQ(table.gpus, 4);
  ASSERT_EQ(table.points.size(), 2u);
  EXPECT_DOUBLE_EQ(table.points[0].time_ns, 21'000.0);
}

TEST(NcclTestsReader, RefusesOtherCollectivesAndTextWithoutATable) {
  std::string all_gather = kNewLayout;
  all_gather.replace(all_gather.find("39.32"), 5, "19.66");
  EXPECT_THROW(parse_nccl_tests(all_gather, "ag.log"), TraceError);
  EXPECT_THROW(parse_nccl_tests("hello\n", "x.log"), TraceError);
}

TEST(NcclTestsReader, ReadsALookUpTableLikeVtrain) {
  const auto table = parse_allreduce_lut(
      "size(B),count,type,time(ns),busbw(GB/s),time(ns),busbw(GB/s)\n1048576,262144,float,44210,23.72,45100,23.25\n",
      "dir/AR_GPU2_1M_1024M_LUT");
  EXPECT_EQ(table.gpus, 2);
  ASSERT_EQ(table.points.size(), 1u);
  EXPECT_DOUBLE_EQ(table.points[0].time_ns, 45'100.0);  // the last pair, as vTrain reads it
  EXPECT_THROW(parse_allreduce_lut("size(B),x\n1,2,3,4,5\n", "no_count.csv"), TraceError);
}

}  // namespace
}  // namespace gpuprof::predict
