#include <gtest/gtest.h>

#include <map>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "import_test_support.hpp"
#include "kineto_time.hpp"
#include "temporary_folder.hpp"

namespace gpuprof {
namespace {

using importers::microseconds_text_to_ns;
using testing::TemporaryFolder;

// A current-format trace: one kernel, copies in each direction, a memset,
// runtime call, annotations, a flow event, an unknown category and a malformed
// event, with baseTimeNanoseconds written after the events as PyTorch does.
const char* kCurrentTrace = R"json({
  "schemaVersion": 1,
  "deviceProperties": [{"id": 0, "name": "NVIDIA A100", "totalGlobalMem": 42297524224,
                        "computeMajor": 8, "computeMinor": 0, "numSms": 108}],
  "distributedInfo": {"backend": "nccl", "rank": 3, "world_size": 8},
  "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 40,
     "ts": 1000.0005, "dur": 2.5,
     "args": {"device": 0, "context": 1, "stream": 40, "correlation": 77, "registers per thread": 96,
              "grid": [8, 1, 1], "block": [544, 1, 1], "Collective name": "allreduce", "In msg nelems": 10,
              "Input Dims": [[1, 2], [3]]}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": 7,
     "ts": 1010, "dur": 1, "args": {"device": 0, "stream": 7, "correlation": 78, "bytes": 4096}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy DtoH (Device -> Pinned)", "pid": 0, "tid": 7,
     "ts": 1020, "dur": 1, "args": {"device": 0, "stream": 7, "bytes": 8}},
    {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy PtoP (Device -> Device)", "pid": 1, "tid": 9,
     "ts": 1030, "dur": 1, "args": {"device": 1, "stream": 9, "bytes": 16, "fromDevice": 1, "toDevice": 0}},
    {"ph": "X", "cat": "gpu_memset", "name": "Memset (Device)", "pid": 0, "tid": 7, "ts": 1040, "dur": 0.001,
     "args": {"device": 0, "stream": 7, "bytes": 64}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 4515, "tid": 4516, "ts": 999,
     "dur": 0.9994, "args": {"correlation": 77, "cbid": 211}},
    {"ph": "X", "cat": "cuda_driver", "name": "cuLaunchKernel", "pid": 4515, "tid": 4516, "ts": 998, "dur": 1},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#5", "pid": 4515, "tid": 4516, "ts": 990,
     "dur": 100},
    {"ph": "X", "cat": "gpu_user_annotation", "name": "ProfilerStep#5", "pid": 0, "tid": 7, "ts": 995,
     "dur": 90, "args": {"device": 0}},
    {"ph": "f", "cat": "ac2g", "name": "ac2g", "id": 77, "pid": 0, "tid": 40, "ts": 1000, "bp": "e"},
    {"ph": "M", "name": "process_name", "pid": 0, "args": {"name": "python3"}},
    {"ph": "X", "cat": "mystery", "name": "x", "pid": 1, "tid": 1, "ts": 1, "dur": 1},
    {"ph": "X", "cat": "kernel", "name": "no_time", "pid": 0, "tid": 7},
    17
  ],
  "displayTimeUnit": "ms",
  "baseTimeNanoseconds": 1700000000000000000
})json";

std::optional<std::int64_t> stat_value(const trace::TraceModel& model, const std::string& name) {
  for (const auto& stat : model.stats) {
    if (stat.name == name) return stat.value;
  }
  return std::nullopt;
}

TEST(KinetoTime, ConvertsMicrosecondTextExactlyWithRounding) {
  EXPECT_EQ(microseconds_text_to_ns("1694128201435418"), 1694128201435418000LL);
  EXPECT_EQ(microseconds_text_to_ns("4458676522690.655"), 4458676522690655LL);
  EXPECT_EQ(microseconds_text_to_ns("1.0005"), 1001);
  EXPECT_EQ(microseconds_text_to_ns("1.0004"), 1000);
  EXPECT_EQ(microseconds_text_to_ns("2"), 2000);
  EXPECT_EQ(microseconds_text_to_ns("1.5e3"), 1500000);
  // Too many digits for the exact reading: the exponent brings it back into range.
  EXPECT_EQ(microseconds_text_to_ns("99999999999999999999e-10"), 10000000000000LL);
  EXPECT_EQ(microseconds_text_to_ns("1.2.3e5"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("abc"), std::nullopt);
  EXPECT_EQ(microseconds_text_to_ns("1."), std::nullopt);
}

class KinetoImport : public ::testing::Test {
 protected:
  trace::TraceModel import_current(bool gzip) {
    const std::string input = folder.file(gzip ? "trace.json.gz" : "trace.json");
    if (gzip) {
      testing::write_gzip_file(input, kCurrentTrace);
    } else {
      testing::write_file(input, kCurrentTrace);
    }
    summary = testing::import_file(input, folder.file("out.sqlite"));
    return trace::load_trace_model(folder.file("out.sqlite"));
  }
  TemporaryFolder folder;
  importers::ImportSummary summary;
};

constexpr std::int64_t kBase = 1700000000000000000LL;

TEST_F(KinetoImport, WritesExactRowsFromCurrentFormat) {
  const auto model = import_current(false);
  EXPECT_EQ(model.meta.at("source_format"), "kineto");
  EXPECT_EQ(model.meta.at("rank"), "3");
  EXPECT_EQ(model.meta.at("world_size"), "8");
  EXPECT_EQ(model.meta.at("source_version"), "schemaVersion 1");
  EXPECT_EQ(model.rank(), 3);

  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].name, "NVIDIA A100");
  EXPECT_EQ(model.devices[0].sm_count, 108);
  EXPECT_EQ(model.devices[0].memory_bytes, 42297524224LL);

  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.string(model.kernels.name[0]), "ncclKernel_AllReduce_RING_LL_Sum_float");
  EXPECT_EQ(model.kernels.start_ns[0], kBase + 1000001);  // 1000.0005 us rounds half up
  EXPECT_EQ(model.kernels.end_ns[0], kBase + 1000001 + 2500);
  EXPECT_EQ(model.kernels.stream[0], 40);
  EXPECT_EQ(model.kernels.correlation_id[0], 77);
  EXPECT_EQ(model.kernels.grid[0], (trace::Dim3{8, 1, 1}));
  EXPECT_EQ(model.kernels.block[0], (trace::Dim3{544, 1, 1}));
  EXPECT_EQ(model.kernels.registers_per_thread[0], 96);

  ASSERT_EQ(model.memcpys.size(), 3u);
  // Sorted by (device, stream, start): HtoD, DtoH on device 0, then PtoP on device 1.
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::host_to_device);
  EXPECT_EQ(model.memcpys.src_memory_kind[0], trace::MemoryKind::pageable);
  EXPECT_EQ(model.memcpys.dst_memory_kind[0], trace::MemoryKind::device);
  EXPECT_EQ(model.memcpys.bytes[0], 4096);
  EXPECT_EQ(model.memcpys.dst_device[0], 0);
  EXPECT_EQ(model.memcpys.start_ns[0], kBase + 1010000);
  EXPECT_EQ(model.memcpys.copy_kind[1], trace::CopyKind::device_to_host);
  EXPECT_EQ(model.memcpys.dst_memory_kind[1], trace::MemoryKind::pinned);
  EXPECT_EQ(model.memcpys.copy_kind[2], trace::CopyKind::peer_to_peer);
  EXPECT_EQ(model.memcpys.src_device[2], 1);
  EXPECT_EQ(model.memcpys.dst_device[2], 0);

  ASSERT_EQ(model.memsets.size(), 1u);
  EXPECT_EQ(model.memsets.end_ns[0] - model.memsets.start_ns[0], 1);
  EXPECT_EQ(model.memsets.bytes[0], 64);

  ASSERT_EQ(model.api_calls.size(), 2u);
  EXPECT_EQ(model.string(model.api_calls.name[0]), "cuLaunchKernel");
  EXPECT_EQ(model.api_calls.kind[0], trace::ApiKind::driver);
  EXPECT_EQ(model.string(model.api_calls.name[1]), "cudaLaunchKernel");
  EXPECT_EQ(model.api_calls.kind[1], trace::ApiKind::runtime);
  EXPECT_EQ(model.api_calls.end_ns[1] - model.api_calls.start_ns[1], 999);  // 0.9994 us
  EXPECT_EQ(model.api_calls.process_id[1], 4515);
  EXPECT_EQ(model.api_calls.thread_id[1], 4516);

  ASSERT_EQ(model.ranges.size(), 2u);
  EXPECT_EQ(model.ranges.on_gpu[0], 0);
  EXPECT_EQ(model.string(model.ranges.domain[0]), "user_annotation");
  EXPECT_EQ(model.ranges.on_gpu[1], 1);
  EXPECT_EQ(model.ranges.device[1], 0);
  EXPECT_EQ(model.ranges.stream[1], 7);

  EXPECT_EQ(stat_value(model, "import.unknown_category.mystery"), 1);
  EXPECT_EQ(stat_value(model, "import.malformed.kernel"), 1);
  EXPECT_EQ(stat_value(model, "import.malformed.not_an_object"), 1);
  EXPECT_EQ(stat_value(model, "import.skipped.ac2g"), 1);
  EXPECT_EQ(stat_value(model, "import.skipped.metadata"), 1);
  ASSERT_EQ(model.collectives.size(), 1u);  // a dtype-less collective: elements known, bytes not
  EXPECT_EQ(model.collectives.correlation_id[0], 77);
  EXPECT_EQ(model.collectives.in_elements[0], 10);
  EXPECT_EQ(model.collectives.in_bytes[0], trace::kUnknown);
  EXPECT_EQ(model.collectives.out_elements[0], trace::kUnknown);
  EXPECT_EQ(summary.counts.warnings, 3);
  EXPECT_EQ(model.meta.at("start_ns"), std::to_string(kBase + 990000));
}

// Kineto NCCL kernels as PyTorch 2.x writes them (hta/nccl_data_rank0of2), plus the mistakes a file can make.
TEST_F(KinetoImport, StoresCollectiveArgsOfNcclKernels) {
  const std::string input = folder.file("nccl.json");
  testing::write_file(input, R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 40,
     "ts": 100, "dur": 10, "args": {"device": 0, "stream": 40, "correlation": 5, "Collective name": "allreduce",
     "In msg nelems": 2049000, "Out msg nelems": 2049000, "Group size": 2, "dtype": "Float",
     "Process Group Name": "0", "Process Group Description": "default_pg", "Process Group Ranks": "[0, 1]"}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllGather_RING_LL_Sum_bf16", "pid": 0, "tid": 40,
     "ts": 200, "dur": 10, "args": {"device": 0, "stream": 40, "correlation": 6, "Collective name": "_allgather_base",
     "In msg nelems": 8, "Out msg nelems": 32, "Group size": 4, "dtype": "BFloat16",
     "Process Group Ranks": [0, 1, 2, 3]}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_Broadcast", "pid": 0, "tid": 40, "ts": 300, "dur": 10,
     "args": {"device": 0, "stream": 40, "correlation": 7, "Collective name": "broadcast", "In msg nelems": -4,
     "Out msg nelems": 4, "Group size": 0, "dtype": "Quaternion", "Process Group Ranks": {"x": 1}}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv", "pid": 0, "tid": 40, "ts": 400, "dur": 10,
     "args": {"device": 0, "stream": 40, "Collective name": "send", "In msg nelems": 4}}
  ]})json");
  summary = testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(summary.counts.collectives, 3);
  const auto& c = model.collectives;
  ASSERT_EQ(c.size(), 3u);
  EXPECT_EQ(model.string(c.name[0]), "allreduce");
  EXPECT_EQ(c.device[0], 0);
  EXPECT_EQ(c.correlation_id[0], 5);
  EXPECT_EQ(c.in_elements[0], 2049000);
  EXPECT_EQ(c.in_bytes[0], 2049000 * 4);
  EXPECT_EQ(c.out_bytes[0], 2049000 * 4);
  EXPECT_EQ(c.group_size[0], 2);
  EXPECT_EQ(model.string(c.dtype[0]), "Float");
  EXPECT_EQ(model.string(c.process_group[0]), "0");
  EXPECT_EQ(model.string(c.group_description[0]), "default_pg");
  EXPECT_EQ(model.string(c.group_ranks[0]), "[0, 1]");
  // BFloat16 is 2 bytes; ranks written as a JSON array come back as the same text.
  EXPECT_EQ(c.in_bytes[1], 16);
  EXPECT_EQ(c.out_bytes[1], 64);
  EXPECT_EQ(model.string(c.group_ranks[1]), "[0, 1, 2, 3]");
  EXPECT_EQ(c.process_group[1], trace::kNoString);
  // A negative size and a group of 0 stay unknown; an unknown dtype gives elements without bytes.
  EXPECT_EQ(c.in_elements[2], trace::kUnknown);
  EXPECT_EQ(c.out_elements[2], 4);
  EXPECT_EQ(c.out_bytes[2], trace::kUnknown);
  EXPECT_EQ(c.group_size[2], trace::kUnknown);
  EXPECT_EQ(c.group_ranks[2], trace::kNoString);  // an object is not a list of ranks
  EXPECT_EQ(stat_value(model, "import.kineto.collective_bad_value"), 2);
  EXPECT_EQ(stat_value(model, "import.kineto.collective_unknown_dtype.Quaternion"), 1);
  EXPECT_EQ(stat_value(model, "import.kineto.collective_without_correlation"), 1);
  EXPECT_EQ(stat_value(model, "import.rows.collectives"), 3);
  EXPECT_EQ(summary.counts.warnings, 4);
}

// PyTorch before 2.x (dlrm-8rank, hta/training_rank0of16): the NCCL kernel has no collective args; its size is
// in the "nccl:..." annotation around the launch, whatever order the events come in.
TEST_F(KinetoImport, SizesNcclKernelsFromTheAnnotationAroundTheirLaunch) {
  const std::string input = folder.file("old_nccl.json");
  testing::write_file(input, R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0, "tid": 84,
     "ts": 130, "dur": 10, "args": {"device": 0, "stream": 84, "correlation": 42386}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 120, "dur": 5,
     "args": {"correlation": 42386}},
    {"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce", "pid": 9, "tid": 9, "ts": 100, "dur": 59,
     "args": {"Input Dims": [[394241]], "Input type": ["float"]}},
    {"ph": "X", "cat": "user_annotation", "name": "nccl:_all_gather_base", "pid": 9, "tid": 9, "ts": 200,
     "dur": 50, "args": {"Input Dims": [[8192, 64], []], "Input type": ["c10::BFloat16", "Scalar"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 210, "dur": 5,
     "args": {"correlation": 43000}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_AllGather_RING_LL_Sum_int8_t", "pid": 0, "tid": 84,
     "ts": 230, "dur": 10, "args": {"device": 0, "stream": 84, "correlation": 43000}},
    {"ph": "X", "cat": "user_annotation", "name": "nccl:all_to_all", "pid": 9, "tid": 9, "ts": 300, "dur": 50,
     "args": {"Input Dims": [[-3]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 9, "tid": 9, "ts": 310, "dur": 5,
     "args": {"correlation": 44000}},
    {"ph": "X", "cat": "kernel", "name": "ncclKernel_SendRecv_RING_SIMPLE_Sum_int8_t", "pid": 0, "tid": 84,
     "ts": 330, "dur": 10, "args": {"device": 0, "stream": 84, "correlation": 44000}}
  ]})json");
  summary = testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  const auto& c = model.collectives;
  ASSERT_EQ(c.size(), 2u);
  std::map<std::int64_t, std::size_t> by_correlation;
  for (std::size_t i = 0; i < c.size(); ++i) by_correlation[c.correlation_id[i]] = i;
  const auto all_reduce = by_correlation.at(42386), all_gather = by_correlation.at(43000);
  EXPECT_EQ(model.string(c.name[all_reduce]), "all_reduce");
  EXPECT_EQ(c.in_elements[all_reduce], 394241);
  EXPECT_EQ(c.in_bytes[all_reduce], 394241 * 4);
  EXPECT_EQ(model.string(c.dtype[all_reduce]), "float");
  EXPECT_EQ(c.out_bytes[all_reduce], trace::kUnknown);  // the annotation states inputs only
  EXPECT_EQ(c.group_size[all_reduce], trace::kUnknown);
  EXPECT_EQ(model.string(c.name[all_gather]), "_all_gather_base");
  EXPECT_EQ(c.in_bytes[all_gather], 8192 * 64 * 2);  // the scalar argument has no shape
  // A negative dimension sizes nothing: counted, and its kernel stays unsized.
  EXPECT_EQ(stat_value(model, "import.kineto.collective_shape_unreadable"), 1);
  EXPECT_EQ(stat_value(model, "import.kineto.collective_kernel_unsized"), 1);
}

// Gradient bytes per step from autograd's AccumulateGrad shapes (kineto-resnet50 has them): summed per
// ProfilerStep by time, the sum most steps agree on; a step cut by the trace's end is outvoted.
TEST_F(KinetoImport, GradientBytesFromAccumulateGradShapes) {
  const std::string input = folder.file("grads.json");
  testing::write_file(input, R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 0, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#2", "pid": 1, "tid": 1, "ts": 100, "dur": 100},
    {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#3", "pid": 1, "tid": 1, "ts": 200, "dur": 100},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 50, "dur": 1,
     "args": {"Input Dims": [[1000, 2048]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 60, "dur": 1,
     "args": {"Input Dims": [[1000]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 150, "dur": 1,
     "args": {"Input Dims": [[1000, 2048]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 160, "dur": 1,
     "args": {"Input Dims": [[1000]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 250, "dur": 1,
     "args": {"Input Dims": [[1000]], "Input type": ["float"]}},
    {"ph": "X", "cat": "cpu_op", "name": "torch::autograd::AccumulateGrad", "pid": 1, "tid": 2, "ts": 260, "dur": 1,
     "args": {"Input Dims": [[]], "Input type": [""]}}
  ]})json");
  summary = testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  EXPECT_EQ(model.meta.at("gradient_bytes"), std::to_string((1000 * 2048 + 1000) * 4));
  EXPECT_EQ(model.meta.at("gradient_bytes_source"),
            "Kineto AccumulateGrad input shapes: 2 tensors per step, 2 of 3 steps with gradients agree");
  EXPECT_EQ(stat_value(model, "import.kineto.gradient_shape_unreadable"), 1);  // the op without a shape
}

TEST_F(KinetoImport, GzipGivesTheSameRows) {
  const auto model = import_current(true);
  EXPECT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.memcpys.size(), 3u);
  EXPECT_EQ(model.kernels.start_ns[0], kBase + 1000001);
}

TEST_F(KinetoImport, ReadsThe2021Format) {
  const std::string input = folder.file("old.json");
  testing::write_file(input, R"json({"schemaVersion": 1, "traceEvents": [
    {"ph": "X", "cat": "Operator", "name": "aten::conv2d", "pid": 25738, "tid": "25738", "ts": 100, "dur": 50,
     "args": {"external id": 5}},
    {"ph": "X", "cat": "Runtime", "name": "cudaMemcpyAsync", "pid": 25738, "tid": "25738", "ts": 110, "dur": 20,
     "args": {"cbid": 41, "correlation": 34417, "external id": 5}},
    {"ph": "X", "cat": "Memcpy", "name": "Memcpy HtoD (Pageable -> Device)", "pid": 0, "tid": "stream 7",
     "ts": 112, "dur": 19, "args": {"device": 0, "context": 1, "stream": 7, "correlation": 34417, "bytes": 100}},
    {"ph": "X", "cat": "Kernel", "name": "k", "pid": 0, "tid": "stream 7", "ts": 140, "dur": 2,
     "args": {"device": 0, "stream": 7, "correlation": 34441, "grid": [50, 1, 1], "block": [256, 1, 1]}},
    {"ph": "X", "cat": "Memset", "name": "Memset (Device)", "pid": 0, "tid": "stream 7", "ts": 150, "dur": 1,
     "args": {"device": 0, "stream": 7, "bytes": 128}},
    {"ph": "s", "cat": "async", "name": "launch", "id": 1, "pid": 25738, "tid": 25738, "ts": 110}
  ]})json");
  summary = testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  ASSERT_EQ(model.kernels.size(), 1u);
  EXPECT_EQ(model.kernels.stream[0], 7);
  EXPECT_EQ(model.kernels.start_ns[0], 140000);
  ASSERT_EQ(model.memcpys.size(), 1u);
  EXPECT_EQ(model.memcpys.correlation_id[0], 34417);
  EXPECT_EQ(model.memcpys.copy_kind[0], trace::CopyKind::host_to_device);
  ASSERT_EQ(model.api_calls.size(), 1u);
  EXPECT_EQ(model.api_calls.thread_id[0], 25738);
  EXPECT_EQ(model.memsets.size(), 1u);
  ASSERT_EQ(model.ranges.size(), 1u);
  EXPECT_EQ(model.string(model.ranges.domain[0]), "cpu_op");
  EXPECT_EQ(model.meta.count("rank"), 0u);
  EXPECT_EQ(summary.counts.warnings, 0);
}

TEST_F(KinetoImport, RejectsJsonThatIsNotATrace) {
  const std::string input = folder.file("config.json");
  testing::write_file(input, R"json({"name": "not a trace", "items": [1, 2]})json");
  try {
    testing::import_file(input, folder.file("out.sqlite"));
    FAIL() << "expected an error";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_NE(std::string(error.what()).find("traceEvents"), std::string::npos);
  }
  EXPECT_FALSE(std::filesystem::exists(folder.file("out.sqlite")));
}

TEST_F(KinetoImport, RejectsTruncatedGzipWithoutLeavingOutput) {
  const std::string whole = folder.file("whole.json.gz");
  testing::write_gzip_file(whole, kCurrentTrace);
  std::string bytes = testing::read_file(whole);
  bytes.resize(bytes.size() / 2);
  const std::string input = folder.file("cut.json.gz");
  testing::write_file(input, bytes);
  try {
    testing::import_file(input, folder.file("out.sqlite"));
    FAIL() << "expected an error";
  } catch (const TraceError& error) {
    EXPECT_EQ(error.kind(), TraceError::Kind::bad_input);
    EXPECT_NE(std::string(error.what()).find("truncated"), std::string::npos) << error.what();
  }
  EXPECT_TRUE(std::filesystem::is_empty(folder.path()) ||
              !std::filesystem::exists(folder.file("out.sqlite")));
}

TEST_F(KinetoImport, RejectsInvalidJson) {
  const std::string input = folder.file("bad.json");
  testing::write_file(input, R"json({"traceEvents": [{"ph": "X", "cat": "kernel",)json");
  EXPECT_THROW(testing::import_file(input, folder.file("out.sqlite")), TraceError);
  EXPECT_FALSE(std::filesystem::exists(folder.file("out.sqlite")));
}

// Found by gpuprof_fuzz_kineto: a deviceProperties element that is not an
// object used to write through devices.back() of an empty list (the stale
// "name" key comes from distributedInfo). It must be ignored instead.
TEST_F(KinetoImport, IgnoresDevicePropertiesElementsThatAreNotObjects) {
  const std::string input = folder.file("odd_devices.json");
  testing::write_file(input, R"json({"distributedInfo": {"name": "x"},
    "deviceProperties": [["NVIDIA A100", 0], {"id": 1, "name": "NVIDIA H100"}], "traceEvents": []})json");
  summary = testing::import_file(input, folder.file("out.sqlite"));
  const auto model = trace::load_trace_model(folder.file("out.sqlite"));
  ASSERT_EQ(model.devices.size(), 1u);
  EXPECT_EQ(model.devices[0].id, 1);
  EXPECT_EQ(model.devices[0].name, "NVIDIA H100");
}

}  // namespace
}  // namespace gpuprof
