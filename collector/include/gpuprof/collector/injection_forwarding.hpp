#pragma once

// Hands an injection entry point on to another library already loaded in the
// process. The collector is the NVTX injection library named by `gpuprof
// record`, but CUPTI does the NVTX work: the call goes on to the libcupti the
// collector itself loaded, whichever file that is (the CUDA toolkit's or a Python
// wheel's), so NVTX and the enabled activities meet in one CUPTI.

#include <string>

namespace gpuprof::collector {

struct ForwardedCall {
  int result = 0;       // what the entry point returned; 0 (failure) when it was not called
  std::string problem;  // why it was not called; empty when it was
};

// The file of the loaded library that holds this address; empty when none does.
std::string library_containing(const void* address);

// Calls `entry_point(argument)` (an `int (void*)` function, as NVTX's entry
// points are) in the loaded library that holds `address_in_target`. Refuses
// when that library is the one holding `address_of_caller`: a call to itself.
ForwardedCall forward_injection_call(const void* address_in_target, const void* address_of_caller,
                                     const char* entry_point, void* argument);

}  // namespace gpuprof::collector
