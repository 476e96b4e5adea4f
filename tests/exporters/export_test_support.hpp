#pragma once

#include <rapidjson/document.h>

#include <string>

#include "gpuprof/exporters/chrome_trace_exporter.hpp"

namespace gpuprof::testing {

// Interned names the handcrafted trace uses, so tests can look for them.
inline constexpr const char* kQuotedKernelName = "void gemm<float, \"tile\\64\">(\xe2\x88\x91 / \tA)";

// A small trace with one row of every kind the Kineto format can carry:
// kernels on two devices and streams, copies of each kind (PtoP between the
// two devices), a memset, runtime and driver calls launching them, a stream
// sync, host NVTX ranges with a domain and a range on a GPU stream.
void write_handcrafted_trace(const std::string& path);

exporters::ChromeTraceSummary export_file(const std::string& input, const std::string& output,
                                          bool overwrite = false);

// The JSON text of a file, gunzipped when compressed.
std::string read_text(const std::string& path);
rapidjson::Document parse_json(const std::string& path);

}  // namespace gpuprof::testing
