#include "gpuprof/trace/symbol_names.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpuprof::trace {
namespace {

TEST(SymbolNames, DemanglesCudaKernelNames) {
  EXPECT_EQ(demangle_symbol("_Z10add_kernelPfPKfi"), "add_kernel(float*, float const*, int)");
  EXPECT_EQ(demangle_symbol("_Z22ncclDevKernel_SendRecv24ncclDevKernelArgsStorageILm4096EE"),
            "ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)");
  EXPECT_EQ(demangle_symbol("__Z10add_kernelPfPKfi"), "add_kernel(float*, float const*, int)");
}

TEST(SymbolNames, KeepsNamesThatAreNotMangled) {
  EXPECT_EQ(demangle_symbol("volta_sgemm_128x64_nn"), "volta_sgemm_128x64_nn");
  EXPECT_EQ(demangle_symbol(""), "");
  EXPECT_FALSE(is_mangled_symbol("void at::native::kernel<float>(float*)"));
  EXPECT_TRUE(is_mangled_symbol("_Z3foov"));
}

TEST(SymbolNames, KeepsHostileOrBrokenNamesAsTheyAre) {
  EXPECT_EQ(demangle_symbol("_Z"), "_Z");
  EXPECT_EQ(demangle_symbol("_Z10add_ker"), "_Z10add_ker");
  const std::string with_nul("_Z3foov\0x", 9);
  EXPECT_EQ(demangle_symbol(with_nul), with_nul);
  const std::string deep = "_Z" + std::string(200000, 'P') + "v";
  EXPECT_EQ(demangle_symbol(deep), deep);
}

}  // namespace
}  // namespace gpuprof::trace
