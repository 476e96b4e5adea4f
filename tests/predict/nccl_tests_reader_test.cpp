#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cmath>
#include <filesystem>
#include <functional>

#include "gpuprof/predict/nccl_tests_reader.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "expect_bad_input.hpp"
#include "temporary_folder.hpp"

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

using gpuprof::testing::expect_bad_input;

// Issue 40: libstdc++'s regex recursed once per character of a comment line and
// overflowed the stack on 40,000 spaces or a long run of digits after `# Rank`.
TEST(NcclTestsReader, LongCommentLinesDoNotOverflowTheStack) {
  for (const auto& line : {"#" + std::string(400'000, ' ') + "x", "#  Rank " + std::string(400'000, '7') + "x"}) {
    EXPECT_EQ(parse_nccl_tests(line + "\n" + kNewLayout, "long.log").gpus, 4);
  }
  std::string spaced = kNewLayout;
  const auto rank3 = spaced.find("#  Rank  3");
  spaced.replace(rank3, 10, "#" + std::string(400'000, ' ') + "Rank" + std::string(400'000, '\t') + "3");
  EXPECT_EQ(parse_nccl_tests(spaced, "spaced.log").gpus, 4);
}

TEST(NcclTestsReader, AGpuCountInTheNameBeyondAnyMachineIsBadInput) {
  const std::string rows = "size(B),count,type,time(ns),busbw(GB/s)\n1048576,262144,float,44210,23.72\n";
  expect_bad_input([&] { parse_allreduce_lut(rows, "dir/AR_GPU99999999999_1M_LUT"); }, "dir/AR_GPU99999999999_1M_LUT");
  expect_bad_input([&] { parse_allreduce_lut(rows, "dir/AR_GPU65537_1M_LUT"); }, "dir/AR_GPU65537_1M_LUT");
  // Only the file name counts: a folder named GPU2 does not make a table of 2 GPUs.
  expect_bad_input([&] { parse_allreduce_lut(rows, "GPU2/AR_LUT"); }, "GPU2/AR_LUT");
  EXPECT_EQ(parse_allreduce_lut(rows, "GPU9/AR_GPU4_1M_LUT").gpus, 4);
}

// Values no all-reduce can have: a fit on them predicted 44x on 2 GPUs or a negative step time.
TEST(NcclTestsReader, ValuesNoMeasurementCanHaveAreRefused) {
  const std::string header = "size(B),count,type,time(ns),busbw(GB/s)\n";
  for (const char* row : {"1e300,1,float,44210,1\n", "9223372036854775807,1,float,44210,1\n",
                          "1048576,1,float,1e-300,1\n", "1048576,1,float,1e300,1\n", "1.5,1,float,10,1\n",
                          "1099511627776,1,float,1,1\n"}) {
    expect_bad_input([&] { parse_allreduce_lut(header + row, "AR_GPU2_LUT"); }, "AR_GPU2_LUT");
  }
  std::string tiny_time = kNewLayout;
  for (auto at = tiny_time.find("40.00"); at != std::string::npos; at = tiny_time.find("40.00")) {
    tiny_time.replace(at, 5, "1e-30");  // both placements of the 1 MiB row
  }
  expect_bad_input([&] { parse_nccl_tests(tiny_time, "t.log"); }, "t.log");
}

// Found by fuzz_link_file: two rows of one size made the curve's latency 0/0, and every predicted time NaN.
TEST(NcclTestsReader, RowsOfOneSizeBecomeOnePointAtTheirMeanTime) {
  const auto table = parse_allreduce_lut("size(B),count,type,time(ns),busbw(GB/s)\n1048576,1,float,40000,1\n"
                                         "1048576,1,float,50000,1\n2097152,1,float,80000,1\n",
                                         "AR_GPU2_LUT");
  ASSERT_EQ(table.points.size(), 2u);
  EXPECT_DOUBLE_EQ(table.points[0].time_ns, 45'000.0);
  const AllReduceCurve curve({table});
  for (const std::int64_t bytes : {std::int64_t{1}, std::int64_t{1} << 20, std::int64_t{1} << 30}) {
    EXPECT_TRUE(std::isfinite(curve.time_ns(bytes, 2))) << bytes;
  }
  const std::string row = "     1048576        262144     float     sum      -1    40.00   26.21   39.32      0    40.00   26.21   39.32      0\n";
  EXPECT_EQ(parse_nccl_tests(kNewLayout + row, "repeated_row.log").points.size(), 2u);
}

TEST(NcclTestsReader, OnlyRegularFilesOfSensibleSizeAreRead) {
  testing::TemporaryFolder folder;
  const auto fifo = folder.file("fifo.log");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  expect_bad_input([&] { read_allreduce_file(fifo); }, fifo);  // used to block forever
  expect_bad_input([&] { read_allreduce_file(folder.path().string()); }, folder.path().string());
  expect_bad_input([&] { read_allreduce_file(folder.file("absent.log")); }, folder.file("absent.log"));
  const auto huge = folder.file("huge.log");
  testing::write_file(huge, kNewLayout + std::string(9 << 20, '\n'));
  expect_bad_input([&] { read_allreduce_file(huge); }, huge);
  const auto long_line = folder.file("long_line.log");
  testing::write_file(long_line, "#" + std::string(40'000, ' ') + "\n" + kNewLayout);
  expect_bad_input([&] { read_allreduce_file(long_line); }, long_line);
  const auto good = folder.file("good.log");
  testing::write_file(good, kNewLayout);
  EXPECT_EQ(read_allreduce_file(good).gpus, 4);
}

}  // namespace
}  // namespace gpuprof::predict
