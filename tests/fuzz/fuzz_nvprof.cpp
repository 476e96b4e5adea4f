#include <cstddef>
#include <cstdint>

#include "fuzz_import.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return gpuprof::fuzz::import_bytes(gpuprof::importers::SourceFormat::nvprof, data, size);
}
