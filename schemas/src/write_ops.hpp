#pragma once

// One write a TraceWriter asks of its file, so that writes can be queued and
// applied in order by another thread (background_writes.hpp).

#include <string>
#include <variant>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::trace {

struct InternedString {
  StringId id = 0;
  std::string text;
};
struct MetaEntry {
  std::string key, value;
};
struct CommitPoint {};

using WriteOp = std::variant<InternedString, MetaEntry, DeviceRow, DeviceLinkRow, KernelRow, MemcpyRow, MemsetRow,
                             ApiCallRow, SyncRow, RangeRow, CollectiveRow, MemoryEventRow, ThreadStateRow,
                             StatRow, CommitPoint>;

}  // namespace gpuprof::trace
