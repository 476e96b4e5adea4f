#pragma once

#include <functional>
#include <string>

#include "gpuprof/importers/import_sink.hpp"

namespace gpuprof::importers {

// Streams a PyTorch profiler (Kineto) JSON trace, plain or gzip, through a SAX
// parser: memory stays bounded whatever the file size. Handles the current
// categories (kernel, gpu_memcpy, cuda_runtime, ...) and the 2021 ones
// (Kernel, Memcpy, Runtime, Operator). Throws TraceError::bad_input for
// truncated or invalid input and for JSON that is not a trace.
// `on_file_bytes`, when set, is called now and then with the bytes of the file read so far.
ImportResult import_kineto(const std::string& input, ImportSink& sink,
                           const std::function<void(std::int64_t)>& on_file_bytes = {});

}  // namespace gpuprof::importers
