#include "gpuprof/collector/injection_forwarding.hpp"

#include <dlfcn.h>
#include <gtest/gtest.h>

#include <string>

namespace gpuprof::collector {
namespace {

struct StandIn {
  void* handle = ::dlopen(NVTX_STAND_IN_LIBRARY, RTLD_NOW | RTLD_LOCAL);
  ~StandIn() {
    if (handle != nullptr) ::dlclose(handle);
  }
  const void* symbol(const char* name) const { return ::dlsym(handle, name); }
  int calls() const { return reinterpret_cast<int (*)()>(::dlsym(handle, "stand_in_calls"))(); }
  void* last_argument() const { return reinterpret_cast<void* (*)()>(::dlsym(handle, "stand_in_last_argument"))(); }
};

void here() {}
const void* address_here() { return reinterpret_cast<const void*>(&here); }

TEST(InjectionForwarding, CallsTheEntryPointOfTheLibraryHoldingTheAddressWithTheSameArgument) {
  StandIn stand_in;
  ASSERT_NE(stand_in.handle, nullptr) << ::dlerror();
  EXPECT_NE(library_containing(stand_in.symbol("stand_in_calls")).find("nvtx_stand_in"), std::string::npos);
  // Counted from here: dlclose need not unload the stand-in, so other tests' calls may remain.
  const int calls_before = stand_in.calls();
  int token = 0;
  const auto call = forward_injection_call(stand_in.symbol("stand_in_calls"), address_here(),
                                           "InitializeInjectionNvtx2", &token);
  EXPECT_TRUE(call.problem.empty()) << call.problem;
  EXPECT_EQ(call.result, 7);
  EXPECT_EQ(stand_in.calls(), calls_before + 1);
  EXPECT_EQ(stand_in.last_argument(), &token);
}

TEST(InjectionForwarding, AMissingEntryPointIsAProblemNotACrash) {
  StandIn stand_in;
  ASSERT_NE(stand_in.handle, nullptr) << ::dlerror();
  const int calls_before = stand_in.calls();
  const auto call =
      forward_injection_call(stand_in.symbol("stand_in_calls"), address_here(), "InitializeInjectionNvtx9", nullptr);
  EXPECT_EQ(call.result, 0);
  EXPECT_NE(call.problem.find("has no InitializeInjectionNvtx9"), std::string::npos) << call.problem;
  EXPECT_EQ(stand_in.calls(), calls_before);
}

// The collector must never forward to itself (CUPTI linked in statically, say): that would recurse forever.
TEST(InjectionForwarding, RefusesToCallItsOwnLibrary) {
  const auto call = forward_injection_call(address_here(), address_here(), "InitializeInjectionNvtx2", nullptr);
  EXPECT_EQ(call.result, 0);
  EXPECT_NE(call.problem.find("would call itself"), std::string::npos) << call.problem;
}

TEST(InjectionForwarding, NothingLoadedAtTheAddressIsAProblem) {
  const auto call = forward_injection_call(nullptr, address_here(), "InitializeInjectionNvtx2", nullptr);
  EXPECT_EQ(call.result, 0);
  EXPECT_NE(call.problem.find("not loaded"), std::string::npos) << call.problem;
}

}  // namespace
}  // namespace gpuprof::collector
