#include <gtest/gtest.h>

#include "gpuprof/analysis/kernel_names.hpp"

namespace gpuprof::analysis {
namespace {

TEST(KernelNames, ShortNameDropsNamespacesTemplatesParameters) {
  EXPECT_EQ(short_kernel_name("void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<float>, "
                              "at::detail::Array<char*, 1> >(int, at::native::FillFunctor<float>, "
                              "at::detail::Array<char*, 1>)"),
            "vectorized_elementwise_kernel");
  EXPECT_EQ(short_kernel_name("ncclDevKernel_AllReduce_Sum_f32_RING_LL(ncclDevKernelArgsStorage<4096ul>)"),
            "ncclDevKernel_AllReduce_Sum_f32_RING_LL");
  EXPECT_EQ(short_kernel_name("void (anonymous namespace)::softmax_warp_forward<float, float, float, 10, false>"
                              "(float*, float const*, int, int, int)"),
            "softmax_warp_forward");
  EXPECT_EQ(short_kernel_name("volta_sgemm_128x64_nn"), "volta_sgemm_128x64_nn");
  EXPECT_EQ(short_kernel_name("triton_poi_fused_add_0"), "triton_poi_fused_add_0");
}

TEST(KernelNames, MangledNamesAreDemangledFirst) {
  EXPECT_EQ(readable_kernel_name("_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE"),
            "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(short_kernel_name("_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE"),
            "ncclDevKernel_SendRecv");
  EXPECT_EQ(short_kernel_name("_Z10dgemv_kernILi128EEviiPKdS1_Pd"), "dgemv_kern");
}

TEST(KernelNames, OddInputComesBackWhole) {
  EXPECT_EQ(short_kernel_name(""), "");
  EXPECT_EQ(short_kernel_name("<>"), "<>");
  EXPECT_EQ(short_kernel_name("a>>b(("), "ab");  // stray closers are ignored, open lists dropped
}

}  // namespace
}  // namespace gpuprof::analysis
