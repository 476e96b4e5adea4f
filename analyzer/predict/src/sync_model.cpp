#include "gpuprof/predict/sync_model.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::predict {

std::string_view to_string(SyncStrategy sync) {
  switch (sync) {
    case SyncStrategy::ring_allreduce:
      return "ring-allreduce";
    case SyncStrategy::ps_cpu:
      return "ps-cpu";
    case SyncStrategy::ps_gpu:
      return "ps-gpu";
  }
  return "?";
}

namespace {
constexpr SyncStrategy kSyncStrategies[] = {SyncStrategy::ring_allreduce, SyncStrategy::ps_cpu, SyncStrategy::ps_gpu};
}  // namespace

std::vector<std::string> sync_names() {
  std::vector<std::string> names;
  for (const auto sync : kSyncStrategies) names.emplace_back(to_string(sync));
  return names;
}

SyncStrategy parse_sync(const std::string& name, const std::string& option) {
  for (const auto sync : kSyncStrategies)
    if (name == to_string(sync)) return sync;
  throw TraceError::bad_input("", fmt::format("unknown {} '{}' ({})", option, name, fmt::join(sync_names(), ", ")));
}

double peer_gbps_over(const LinkProfile& link, PathKind path) {
  const double far = link.far_peer_gbps > 0 ? link.far_peer_gbps : link.peer_gbps;
  return beyond_one_switch(path) ? std::min(far, link.peer_gbps) : link.peer_gbps;
}

double parameter_server_ns(SyncStrategy sync, const LinkProfile& link, std::int32_t gpus, std::int64_t bytes,
                           PathKind path, bool one_after_another) {
  if (gpus <= 1 || sync == SyncStrategy::ring_allreduce) return 0.0;
  const double size = static_cast<double>(bytes);
  if (sync == SyncStrategy::ps_cpu) {
    // Gradients down, parameters up: two copies per GPU over its host link.
    const double copies = one_after_another ? 2.0 * gpus : 2.0;
    return copies * (link.host_latency_ns + size / link.host_gbps);
  }
  // GPU 0 holds the variables: every other GPU's gradients come in and the parameters go out through its link.
  const double gbps = peer_gbps_over(link, path);
  return 2.0 * (gpus - 1) * (link.peer_latency_ns + size / gbps);
}

double ring_bandwidth_share(const LinkProfile& link, PathKind path) {
  return link.peer_gbps > 0 ? peer_gbps_over(link, path) / link.peer_gbps : 1.0;
}

}  // namespace gpuprof::predict
