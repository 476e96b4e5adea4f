#pragma once

#include <cstdint>
#include <string_view>

namespace gpuprof::importers {

// The API function a CUPTI callback id stands for ("cudaLaunchKernel",
// "cuMemAlloc_v2"), from tables generated out of the CUDA toolkit's
// cupti_runtime_cbid.h / cupti_driver_cbid.h. Empty for an id the tables do
// not know (a newer toolkit than the tables, or a corrupt row).
std::string_view runtime_callback_name(std::int64_t callback_id);
std::string_view driver_callback_name(std::int64_t callback_id);

}  // namespace gpuprof::importers
