#pragma once

#include <cstddef>
#include <cstdint>

#include "gpuprof/importers/source_format.hpp"

namespace gpuprof::fuzz {

// Imports the fuzz bytes as a file of `format` (as `gpuprof import --format`
// would) into a throwaway output. TraceError is the expected answer to bad
// input and is swallowed; anything else escapes so libFuzzer reports it.
int import_bytes(importers::SourceFormat format, const std::uint8_t* data, std::size_t size);

}  // namespace gpuprof::fuzz
