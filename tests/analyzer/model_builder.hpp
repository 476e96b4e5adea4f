#pragma once

// Builds small TraceModel fixtures in memory, row by row, then sorts them the
// way the loader does so analyses see the same layout as with a real file.

#include <cstdint>
#include <string>
#include <string_view>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::testing {

class ModelBuilder {
 public:
  ModelBuilder();

  trace::StringId intern(std::string_view text);
  ModelBuilder& kernel(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end,
                       std::string_view name, std::int64_t correlation = trace::kUnknown);
  ModelBuilder& memcpy(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end,
                       trace::CopyKind kind, std::int64_t bytes, std::int32_t src_device = trace::kUnknown32,
                       std::int32_t dst_device = trace::kUnknown32,
                       trace::MemoryKind src_memory = trace::MemoryKind::device,
                       std::int64_t correlation = trace::kUnknown);
  ModelBuilder& memset(std::int32_t device, std::int64_t stream, std::int64_t start, std::int64_t end);
  ModelBuilder& api_call(std::int64_t thread, std::int64_t start, std::int64_t end, std::int64_t correlation,
                         std::string_view name = "cudaLaunchKernel");
  ModelBuilder& sync(std::int64_t thread, std::int64_t start, std::int64_t end);
  ModelBuilder& range(std::int64_t thread, std::int64_t start, std::int64_t end, std::string_view name);
  ModelBuilder& gpu_range(std::int32_t device, std::int64_t start, std::int64_t end, std::string_view name);
  ModelBuilder& meta(const std::string& key, const std::string& value);
  // A collectives row for the kernel on `device` with `correlation`; kUnknown for an unknown value.
  ModelBuilder& collective(std::int32_t device, std::int64_t correlation, std::string_view name,
                           std::int64_t in_bytes, std::int64_t out_bytes, std::int64_t group_size);

  // A memory_events row (the model then has the table); `allocated_after` kUnknown when not recorded.
  ModelBuilder& memory_event(std::int32_t device, std::int64_t time, trace::MemoryOperation operation,
                             std::int64_t bytes, std::int64_t allocated_after = trace::kUnknown,
                             trace::MemoryKind kind = trace::MemoryKind::device);

  // Sorts the tables and builds the stream slices.
  trace::TraceModel build();

 private:
  trace::TraceModel model_;
};

}  // namespace gpuprof::testing
