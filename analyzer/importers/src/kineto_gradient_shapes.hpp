#pragma once

// The gradient bytes of a training step, from what a Kineto trace recorded with
// shapes holds: autograd's "torch::autograd::AccumulateGrad" op runs once per
// parameter per backward, and its "Input Dims" and "Input type" give the
// gradient it accumulates. Summed per "ProfilerStep#N" range (by time: backward
// runs on autograd's own thread), the steps' sum is written as meta
// `gradient_bytes` with `gradient_bytes_source` saying how it was found, for
// `gpuprof predict`. Steps whose sums differ (a step cut by the trace's ends)
// are outvoted: the sum most steps agree on is kept.

#include <cstdint>
#include <vector>

#include "gpuprof/importers/import_sink.hpp"
#include "kineto_event.hpp"

namespace gpuprof::importers {

class GradientShapes {
 public:
  void range(const KinetoEvent& event, std::int64_t start_ns, std::int64_t end_ns, ImportSink& sink);
  void finish(ImportSink& sink);

 private:
  struct Step {
    std::int64_t start_ns, end_ns;
  };
  struct Gradient {
    std::int64_t start_ns, bytes;
  };
  std::vector<Step> steps_;
  std::vector<Gradient> gradients_;
};

}  // namespace gpuprof::importers
