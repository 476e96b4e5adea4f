#pragma once

#include <memory>
#include <vector>

#include "device_context.hpp"
#include "options.hpp"
#include "placement_plan.hpp"
#include "trainable_model.hpp"

namespace gpuprof::workloads {

// The model named in the options, built on `contexts` (one per GPU of the replica,
// indexed as the placement plan's devices) for batches of up to `max_batch` samples.
std::unique_ptr<TrainableModel> make_model(const WorkloadOptions& options, const PlacementPlan& placement,
                                           const std::vector<const DeviceContext*>& contexts, int max_batch);

}  // namespace gpuprof::workloads
