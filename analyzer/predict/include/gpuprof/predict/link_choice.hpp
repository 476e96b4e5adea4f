#pragma once

// With no `--link`, the link follows from the GPU the 1-GPU trace ran on, and the
// prediction says which it chose and why (issue 37: never a silent default).

#include <string>
#include <vector>

#include "gpuprof/predict/link_profile.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::predict {

// The preset for `device`'s name (with `files` replacing its all-reduce tables), and a note saying so in
// `notes`. Throws TraceError::bad_input naming the trace when the name is missing or not one it knows.
LinkProfile link_for_device(const trace::TraceModel& model, std::int32_t device, const std::vector<std::string>& files,
                            const std::string& option_prefix, std::vector<std::string>& notes);

// The preset name for a GPU's name (case ignored), empty when none fits.
std::string preset_for_gpu_name(const std::string& name);

}  // namespace gpuprof::predict
