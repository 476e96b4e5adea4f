#pragma once

// The calls into libcupti: enabling activity kinds, naming API callbacks,
// walking a buffer. Kept apart from the translator so that it stays CUPTI-free.

#include <cupti.h>

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuprof/collector/activity_translator.hpp"
#include "gpuprof/collector/collector_config.hpp"

namespace gpuprof::collector {

struct EnableResult {
  std::string call;                   // the call that failed, when result != CUPTI_SUCCESS
  CUptiResult result = CUPTI_SUCCESS;
  // Optional parts that could not be enabled: (short name, message).
  std::vector<std::pair<std::string, std::string>> warnings;
  bool subscribed = false;  // CUPTI's callbacks reach us (flush points, launch counts)
};

// Registers the buffer callbacks, enables the configured activity kinds and
// subscribes to the calls before which buffers must be flushed.
EnableResult enable_activities(const CollectorConfig& config, CUpti_SubscriberHandle& subscriber);

std::string cupti_result_text(CUptiResult result);
std::optional<std::uint32_t> cupti_version();
// "cudaMemcpy" for a runtime callback id (CUPTI's "_v3020" suffix removed).
ApiNameResolver api_name_resolver();

// Calls `visit` for every record of a completed buffer. False when the buffer
// holds something CUPTI cannot read.
bool for_each_record(std::uint8_t* buffer, std::size_t valid_bytes,
                     const std::function<void(const CUpti_Activity&)>& visit);

}  // namespace gpuprof::collector
