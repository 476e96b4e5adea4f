#include <gtest/gtest.h>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/comm_rules.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "model_builder.hpp"

// Communication kernels found with no option (DESIGN.md, "Communication kernel"), one family per case.

namespace gpuprof::analysis {
namespace {

using testing::ModelBuilder;

std::string rule_of(std::string_view name) { return KernelClassifier().comm_rule(name); }

TEST(CommRules, LibraryFamiliesByName) {
  const std::pair<std::string_view, std::string_view> cases[] = {
      {"ncclDevKernel_AllReduce_Sum_bf16_RING_LL(ncclDevKernelArgsStorage<4096ul>)", "NCCL/RCCL"},
      {"_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE", "NCCL/RCCL"},
      {"ncclKernel_AllGather_RING_LL_Sum_int8_t(ncclWorkElem)", "NCCL/RCCL"},
      {"rcclGenericKernel", "NCCL/RCCL"},
      {"void mscclKernel_Sum_float_LL<0>(int, int, mscclAlgo*, mscclWork*)", "MSCCL"},
      {"void mscclpp::allreduce6<float>(float*, mscclpp::DeviceHandle<mscclpp::SmChannel>*, unsigned long)", "MSCCL"},
      {"void nvshmemi_transfer_rma_put_kernel(void*)", "NVSHMEM"},
      {"void deep_ep::intranode::dispatch<8, 768, 8192>(int4*, float*, int*)", "DeepEP"},
      {"void deep_ep::internode_ll::combine<false>(void*, int)", "DeepEP"},
      {"void deep_ep::intranode::notify_dispatch<8>(int const*, int*)", "DeepEP"},
      // Forks rename the top namespace and keep the rest.
      {"void uccl_ep::internode::dispatch<true, 8, 4>(int4*, float*, int*)", "DeepEP"},
      {"void my_ep::internode_ll::combine<false>(void*, int)", "DeepEP"},
      {"void pplx::dispatchKernel<float>(pplx::DispatchArgs)", "pplx"},
      {"_all_to_all_triton_kernel", "all-to-all"},
      {"void c10d::symmetric_memory::multimem_all_reduce_kernel<float, 16, 4>(float*, unsigned long)",
       "symmetric-memory"},
      {"void c10d::symmetric_memory::one_shot_all_reduce_kernel<c10::BFloat16, 8>(c10::BFloat16**, unsigned long)",
       "symmetric-memory"},
      {"two_shot_all_reduce_kernel_inplace", "symmetric-memory"},
      {"void vllm::cross_device_reduce_1stage<__nv_bfloat16, 8>(vllm::RankData*, vllm::RankSignals, int)",
       "vLLM"},
      {"void tensorrt_llm::kernels::oneShotAllReduceKernel<float, 8>(tensorrt_llm::kernels::AllReduceParams)",
       "TensorRT-LLM"},
  };
  for (const auto& [name, family] : cases) {
    const auto rule = rule_of(name);
    EXPECT_NE(rule.find(family), std::string::npos) << name << " -> '" << rule << "'";
  }
}

TEST(CommRules, LibraryCallsByPrefixInAnyCase) {
  for (const char* call : {"ncclAllReduce", "NCCLGroupEnd", "rcclSend", "nvshmem_barrier_all", "MSCCLPP_put"}) {
    EXPECT_TRUE(is_comm_library_call(call)) << call;
  }
  for (const char* call : {"cudaLaunchKernel", "nc", "", "my_ncclWrapper", "msccl"}) {
    EXPECT_FALSE(is_comm_library_call(call)) << call;
  }
}

TEST(CommRules, ComputationStaysComputation) {
  for (const auto* name : {"volta_sgemm_128x64_nn", "gemm_nccl_fused", "void at::native::dispatch_kernel<float>()",
                           "void cutlass::combine_heads<float>(float*)", "all_reduce_sum_kernel",
                           "void deep_ep::layout::get_dispatch_layout<256, 32, 8>(long const*, int*, int*)"}) {
    EXPECT_EQ(rule_of(name), "") << name;
  }
}

TEST(CommRules, CommPatternAddsAndNamesItsRule) {
  const KernelClassifier classifier({"AllGather"});
  EXPECT_EQ(classifier.comm_rule("my_AllGather_kernel"), "--comm-pattern 'AllGather'");
  EXPECT_EQ(classifier.classify("my_AllGather_kernel"), KernelCategory::communication);
}

// A kernel with an unknown name becomes communication when an NCCL call or a
// host range of one launched it.
TEST(CommRules, LaunchedByCommunicationLibraryCall) {
  ModelBuilder builder;
  builder.api_call(1, 10, 20, 1, "ncclAllReduce").kernel(0, 7, 100, 200, "custom_ring_kernel", 1);
  builder.range(2, 0, 100, "nccl:all_reduce").api_call(2, 30, 40, 2).kernel(0, 8, 300, 400, "fused_ar", 2);
  builder.api_call(2, 150, 160, 3).kernel(0, 8, 500, 600, "gemm", 3);
  const auto model = builder.build();
  const auto classes = KernelClassifier().classify_model(model);
  const auto rule = [&](std::string_view name) {
    for (std::size_t id = 0; id < model.strings.size(); ++id) {
      if (model.strings[id] == name) return classes.rules[id];
    }
    return std::string("<missing>");
  };
  EXPECT_EQ(rule("custom_ring_kernel"), "launched by ncclAllReduce");
  EXPECT_EQ(rule("fused_ar"), "launched inside nccl:all_reduce");
  EXPECT_EQ(rule("gemm"), "");

  const auto rank = analyze_rank(model, AnalysisOptions{});
  ASSERT_EQ(rank.kernels.comm_rules.size(), 2U);
  EXPECT_EQ(rank.kernels.comm_rules[0].name, "custom_ring_kernel");
  EXPECT_EQ(rank.kernels.comm_rules[1].rule, "launched inside nccl:all_reduce");
  EXPECT_EQ(rank.devices[0].total.total_comm_ns, 200);
}

// Two kernels with one short name stay two rows, each with its full name.
TEST(CommRules, KernelRowsKeepFullNamesApart) {
  ModelBuilder builder;
  builder.kernel(0, 7, 0, 100, "void ns::k<1>(int)").kernel(0, 7, 100, 300, "void ns::k<2>(int)");
  const auto rank = analyze_rank(builder.build(), AnalysisOptions{});
  ASSERT_EQ(rank.kernels.kernels.size(), 2U);
  EXPECT_EQ(rank.kernels.kernels[0].name, "void ns::k<2>(int)");
  EXPECT_EQ(rank.kernels.kernels[0].short_name, "k");
  EXPECT_EQ(rank.kernels.kernels[1].short_name, "k");
}

TEST(DataLoss, EveryWarningOrErrorStatisticIsReported) {
  ModelBuilder builder;
  builder.kernel(0, 7, 0, 100, "gemm");
  auto model = builder.build();
  model.stats = {{"records.kernel", 1, trace::Severity::info, std::nullopt},
                 {"invalid_buffers", 2, trace::Severity::warning, std::nullopt},
                 {"import.malformed.events", 5, trace::Severity::error, std::string("bad ts")},
                 {"dropped_records", 3, trace::Severity::info, std::nullopt},
                 {"dropped_records_other", 0, trace::Severity::info, std::nullopt}};
  const auto rank = analyze_rank(model, AnalysisOptions{});
  ASSERT_EQ(rank.warnings.size(), 3U);
  EXPECT_EQ(rank.warnings[0],
            "invalid_buffers = 2 [warning]: buffers whose records could not be read; totals may undercount");
  EXPECT_EQ(rank.warnings[1],
            "import.malformed.events = 5 (bad ts) [error]: events of a category left out as malformed; totals may "
            "undercount");
  EXPECT_EQ(rank.warnings[2],
            "dropped_records = 3 [warning]: activity records CUPTI dropped because its buffers were full; totals "
            "may undercount");
}

}  // namespace
}  // namespace gpuprof::analysis
