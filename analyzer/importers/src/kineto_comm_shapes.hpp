#pragma once

// Collective sizes of Kineto traces whose NCCL kernels carry no "Collective name"
// args (PyTorch before 2.x): there the size is only in the host annotation
// c10d wraps each collective in ("nccl:all_reduce", "nccl:_all_gather_base"),
// whose "Input Dims" and "Input type" give the tensors the collective was
// called with. The annotation, the launch call inside it (same thread) and the
// kernel that launch's correlation id leads to may come in any order in the
// file, so they are linked once every event has been read, into rows of the
// collectives table: the name as the annotation gives it (without "nccl:"), and
// the input's elements and bytes. Output size and group size stay unknown: the
// annotation does not state them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "gpuprof/importers/import_sink.hpp"
#include "kineto_event.hpp"

namespace gpuprof::importers {

// Bytes per element of a tensor type as "Input type" spells it ("float", "c10::BFloat16", "long int");
// nullopt for a type it does not know.
std::optional<std::int64_t> input_type_bytes(std::string_view type);

class CommShapeLinker {
 public:
  // A host annotation or op: kept when it is named "nccl:..." and states its inputs' shapes.
  void annotation(const KinetoEvent& event, std::int64_t thread, std::int64_t start_ns, std::int64_t end_ns,
                  ImportSink& sink);
  // A runtime launch call (the only calls a kernel's correlation id can lead to).
  void launch(std::string_view name, std::int64_t thread, std::int64_t start_ns, std::int64_t correlation);
  // An NCCL kernel without collective args.
  void kernel(std::string_view name, std::int32_t device, std::int64_t correlation);
  // Adds a collectives row per kernel whose launch lies in a sized annotation; counts the kernels left unsized.
  void finish(ImportSink& sink);

 private:
  struct Annotation {
    std::int64_t start_ns, end_ns;
    std::string name, dtype;
    std::int64_t elements, bytes;
  };
  struct Launch {
    std::int64_t thread, start_ns;
  };
  const Annotation* innermost(std::int64_t thread, std::int64_t time_ns) const;

  std::unordered_map<std::int64_t, std::vector<Annotation>> annotations_;  // by thread, sorted by start in finish()
  std::unordered_map<std::int64_t, Launch> launches_;  // by correlation id
  std::vector<std::pair<std::int32_t, std::int64_t>> kernels_;  // device, correlation
};

}  // namespace gpuprof::importers
