#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace gpuprof::importers {

// PyTorch writes baseTimeNanoseconds after traceEvents, so the reader learns
// the time base only once every event has been converted and written. For a
// plain (not gzip) file the last bytes are cheap to read first: this returns
// the value written there, as a guess the converter adds while converting.
// It is only a guess (the text could sit inside a string, or be repeated): the
// importer compares it with what the parser found and shifts the rows by the
// difference afterwards. Nullopt for gzip files and when the tail has none.
std::optional<std::int64_t> guess_kineto_base_time(const std::string& path);

}  // namespace gpuprof::importers
