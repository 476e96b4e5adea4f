#pragma once

// What the host was doing, per device, as disjoint sets of time, one per cause
// (DESIGN.md, "Idle causes"). The threads that issue a device's work (those
// whose API calls launched any of it) are read, together and one by one: an
// idle interval is judged by the thread that launched the work ending it, when
// that is known (another thread's activity does not hold this one back). Data
// loading is read from every thread, since loader threads launch nothing. Where
// several causes hold at once, the one that blocks the host most directly wins:
// sync_wait, blocking_copy, peer_wait, data_loading, then host_bound (any other
// host range or API call on those threads, then the time the OS scheduler had
// them running on a CPU where the trace records it: trace::ThreadStateTable).

#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/analysis/interval_set.hpp"
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/idle/launch_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

inline constexpr std::size_t kHostCauses = 5;  // sync_wait .. host_bound, in IdleCause order

using CauseSets = std::array<analysis::IntervalSet, kHostCauses>;  // disjoint, indexed by IdleCause

// Host activity that explains a device's idle time.
struct DeviceHostCauses {
  CauseSets sets;  // over every issuing thread
  // When and by which thread its work was launched (any_device(): every device's), read from the model's GPU
  // tables until take_any_device keeps what the job reads; null for a device nothing was launched on.
  std::shared_ptr<const LaunchIndex> launches;
  std::vector<std::int64_t> threads;  // the issuing threads read
  // Each issuing thread's own sets (data loading still from every thread); shared by every device.
  std::shared_ptr<const std::map<std::int64_t, CauseSets>> thread_sets;
  // The sets of `thread`, or of every issuing thread when it is not one of them.
  const CauseSets& of_thread(std::optional<std::int64_t> thread) const;
};

// The earliest launch of the work that starts at `gpu_start`; nullopt when no launch of work starting then
// is known.
std::optional<Launch> earliest_launch_at(const DeviceHostCauses& host, std::int64_t gpu_start);
// The thread of that launch.
std::optional<std::int64_t> launching_thread(const DeviceHostCauses& host, std::int64_t gpu_start);

class HostCauses {
 public:
  // `step_names` (per StringId): ranges that only mark a step, not evidence of host work. The launches of
  // every device but take_any_device's are read from `model` and `correlations`: they must outlive it.
  HostCauses(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations,
             const std::vector<bool>& step_names = {});
  // Empty sets for a device nothing was launched on.
  const DeviceHostCauses& device(std::int32_t device) const;
  // The same sets over every thread that issues any device's work, and every device's launches: what the
  // rank's host did.
  const DeviceHostCauses& any_device() const { return all_; }
  // any_device() moved out, for a caller done with the rest, its launches kept only at `gpu_starts`: it no
  // longer reads the model, which may then be freed.
  DeviceHostCauses take_any_device(std::span<const std::int64_t> gpu_starts) &&;
  // Per API row: the call made a pageable copy (pageable_copy_calls).
  const std::vector<bool>& pageable_copy_calls() const { return pageable_copy_calls_; }
  // Per range row: the range encloses its phase (phase_ranges.hpp), so it is no evidence of host work.
  const std::vector<bool>& phase_range_rows() const { return phase_ranges_; }

 private:
  std::vector<bool> pageable_copy_calls_;
  std::vector<bool> phase_ranges_;
  std::map<std::int32_t, DeviceHostCauses> devices_;
  DeviceHostCauses all_;
  DeviceHostCauses none_;
};

// True for host ranges and API calls that wait for peers: communication library calls (`ncclAllReduce`,
// Kineto's `nccl:all_reduce`) and PyTorch's distributed ops (`c10d::…`, `record_param_comms`, barriers).
bool is_peer_wait_name(std::string_view name);

// The cause an API call of this name stands for: sync_wait (`…Synchronize`), blocking_copy (a synchronous
// `…Memcpy…` call), peer_wait (is_peer_wait_name), else host_bound.
IdleCause api_call_cause(std::string_view name);

// api_call_cause per string id of a model, each name classified once.
class ApiNames {
 public:
  explicit ApiNames(const trace::TraceModel& model) : model_(model), cause_(model.strings.size(), -1) {}
  IdleCause cause(trace::StringId id);

 private:
  const trace::TraceModel& model_;
  std::vector<std::int8_t> cause_;
};

// An asynchronous copy to or from pageable memory is staged by the driver and holds the host all the same.
bool pageable_copy(const trace::MemcpyTable& copies, std::size_t row);
// Per API row: the call made a pageable copy, so it is a blocking_copy whatever its name says.
std::vector<bool> pageable_copy_calls(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations);

}  // namespace gpuprof::idle
