#pragma once

// The collective a Kineto NCCL kernel ran, from the kernel event's args
// ("Collective name", "In msg nelems", "Out msg nelems", "dtype", "Group size",
// "Process Group Name", "Process Group Description", "Process Group Ranks"),
// as a row of the collectives table.

#include <cstdint>
#include <optional>
#include <string_view>

#include "gpuprof/importers/import_sink.hpp"
#include "kineto_event.hpp"

namespace gpuprof::importers {

// Bytes per element of a PyTorch scalar type as Kineto names it ("Float", "BFloat16", "Long");
// nullopt for a name it does not know.
std::optional<std::int64_t> scalar_type_bytes(std::string_view dtype);

// Adds the collective row of `kernel`, an event carrying "Collective name". Values the
// file gets wrong (negative sizes, a group of fewer than one rank, an unknown dtype) stay
// unknown and are counted; a kernel without a correlation id cannot be linked and is counted.
void add_collective(const KinetoEvent& event, const trace::KernelRow& kernel, ImportSink& sink);

}  // namespace gpuprof::importers
