#pragma once

#include <functional>
#include <string>

#include "gzip_stream.hpp"
#include "kineto_event.hpp"

namespace gpuprof::importers {

// Deepest nesting of objects and arrays accepted anywhere in a Kineto file
// (README, "Using it"); real traces need about six levels.
inline constexpr int kMaxKinetoJsonDepth = 512;

// Parses a Kineto JSON file (plain or gzip) with RapidJSON's SAX reader, handing
// each trace event to `consumer` as soon as it is complete. Returns the
// top-level fields, whichever side of traceEvents they were written on.
// Throws TraceError::bad_input for invalid JSON, truncated input and JSON that
// is not a trace (not an object, or no traceEvents array) and for nesting
// deeper than kMaxKinetoJsonDepth. `buffer_bytes` is how much of the
// (uncompressed) file is held at once; tests make it tiny to cross refills.
// `on_file_bytes`, when set, is called now and then with the bytes of the file read so far.
KinetoHeader read_kineto(const std::string& path, KinetoEventConsumer& consumer, std::size_t* bytes_read = nullptr,
                         std::size_t buffer_bytes = GzipFile::kDefaultBufferBytes,
                         std::function<void(std::int64_t)> on_file_bytes = {});

}  // namespace gpuprof::importers
