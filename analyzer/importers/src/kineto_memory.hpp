#pragma once

// PyTorch's caching-allocator events in a Kineto trace: instant events named
// "[memory]" (profile_memory=True) with args "Device Type", "Device Id",
// "Bytes" (positive for an allocation, negative for a free) and, in traces
// since 2022, "Addr", "Total Allocated" and "Total Reserved", as rows of the
// memory_events table.

#include <cstdint>

#include "gpuprof/importers/import_sink.hpp"
#include "kineto_event.hpp"

namespace gpuprof::importers {

inline constexpr std::string_view kKinetoMemoryEventName = "[memory]";

// Adds the memory event `event` stamped `time_ns` (its ts on gpuprof's clock).
// Host (CPU) allocator events are counted, not stored: the table holds memory of
// GPUs. Events the file gets wrong (no device, a size of 0 or none) are counted
// and left out; a "Total Allocated" below 0 is stored as unknown and counted.
void add_memory_event(const KinetoEvent& event, std::int64_t time_ns, ImportSink& sink);

}  // namespace gpuprof::importers
