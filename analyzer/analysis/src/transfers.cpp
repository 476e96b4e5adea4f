#include "gpuprof/analysis/transfers.hpp"

#include <algorithm>
#include <deque>
#include <map>
#include <tuple>
#include <unordered_map>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/units/units.hpp"

namespace gpuprof::analysis {
namespace {

using trace::CopyKind;

// Computation of the devices a copy involves; pairs are united once and cached.
class ComputeLookup {
 public:
  explicit ComputeLookup(const std::vector<DeviceActivity>& activity) : activity_(activity) {}

  const IntervalSet& for_devices(std::int32_t a, std::int32_t b) {
    if (a == kHost || a == b) return single(b);
    if (b == kHost) return single(a);
    const auto key = std::minmax(a, b);
    auto found = pairs_.find(key);
    if (found == pairs_.end()) found = pairs_.emplace(key, unite(single(a), single(b))).first;
    return found->second;
  }

 private:
  const IntervalSet& single(std::int32_t device) {
    const auto* entry = find_device(activity_, device);
    return entry ? entry->compute : empty_;
  }

  const std::vector<DeviceActivity>& activity_;
  std::map<std::pair<std::int32_t, std::int32_t>, IntervalSet> pairs_;
  IntervalSet empty_;
};

void add(TransferTotals& totals, std::int64_t bytes, std::int64_t duration, std::int64_t exposed) {
  ++totals.count;
  units::add_saturating(totals.bytes, bytes);
  units::add_saturating(totals.total_ns, duration);
  units::add_saturating(totals.exposed_ns, exposed);
}

TransferMatrix build_matrix(const std::vector<TransferPair>& pairs) {
  TransferMatrix matrix;
  for (const auto& pair : pairs) {
    if (!is_device_to_device(pair.kind) || pair.src_device == kHost || pair.dst_device == kHost) continue;
    matrix.devices.push_back(pair.src_device);
    matrix.devices.push_back(pair.dst_device);
  }
  std::sort(matrix.devices.begin(), matrix.devices.end());
  matrix.devices.erase(std::unique(matrix.devices.begin(), matrix.devices.end()), matrix.devices.end());
  matrix.cells.assign(matrix.devices.size(), std::vector<TransferTotals>(matrix.devices.size()));
  const auto index = [&matrix](std::int32_t device) {
    return static_cast<std::size_t>(std::lower_bound(matrix.devices.begin(), matrix.devices.end(), device) -
                                    matrix.devices.begin());
  };
  for (const auto& pair : pairs) {
    if (!is_device_to_device(pair.kind) || pair.src_device == kHost || pair.dst_device == kHost) continue;
    auto& cell = matrix.cells[index(pair.src_device)][index(pair.dst_device)];
    cell.count += pair.totals.count;
    units::add_saturating(cell.bytes, pair.totals.bytes);
    units::add_saturating(cell.total_ns, pair.totals.total_ns);
    units::add_saturating(cell.exposed_ns, pair.totals.exposed_ns);
  }
  return matrix;
}

struct StagedCopy {
  std::int64_t time_ns;
  bool is_download;  // DtoH; otherwise HtoD
  std::int32_t device;
  std::int64_t bytes;
};

// Pairs each HtoD with the latest unmatched DtoH of the same size from another
// device that finished before the HtoD started.
TransferTotals find_host_staged(const trace::MemcpyTable& table) {
  std::vector<StagedCopy> events;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto kind = table.copy_kind[row];
    if (table.bytes[row] == trace::kUnknown || table.bytes[row] <= 0) continue;
    if (kind == CopyKind::device_to_host) events.push_back({table.end_ns[row], true, table.device[row], table.bytes[row]});
    if (kind == CopyKind::host_to_device) events.push_back({table.start_ns[row], false, table.device[row], table.bytes[row]});
  }
  std::sort(events.begin(), events.end(), [](const StagedCopy& a, const StagedCopy& b) {
    return a.time_ns != b.time_ns ? a.time_ns < b.time_ns : a.is_download > b.is_download;
  });
  std::unordered_map<std::int64_t, std::deque<std::int32_t>> pending;  // bytes -> devices of waiting DtoH
  TransferTotals staged;
  for (const auto& event : events) {
    auto& waiting = pending[event.bytes];
    if (event.is_download) {
      waiting.push_back(event.device);
      continue;
    }
    const auto match = std::find_if(waiting.rbegin(), waiting.rend(),
                                    [&event](std::int32_t device) { return device != event.device; });
    if (match == waiting.rend()) continue;
    waiting.erase(std::next(match).base());
    ++staged.count;
    units::add_saturating(staged.bytes, event.bytes);
  }
  return staged;
}

}  // namespace

std::pair<std::int32_t, std::int32_t> copy_endpoints(const trace::MemcpyTable& table, std::size_t row) {
  const auto kind = table.copy_kind[row];
  std::int32_t src = table.src_device[row], dst = table.dst_device[row];
  const std::int32_t device = table.device[row];
  const bool from_host = kind == CopyKind::host_to_device || kind == CopyKind::host_to_host;
  const bool to_host = kind == CopyKind::device_to_host || kind == CopyKind::host_to_host;
  // Producers often leave the device of the GPU side empty: the row's device is that side.
  if (from_host) src = kHost; else if (src == kHost) src = device;
  if (to_host) dst = kHost; else if (dst == kHost) dst = device;
  return {src, dst};
}

double TransferTotals::gigabytes_per_second() const { return units::gigabytes_per_second(bytes, total_ns); }

TransferReport analyze_transfers(const trace::TraceModel& model, const std::vector<DeviceActivity>& activity) {
  const auto& table = model.memcpys;
  ComputeLookup compute(activity);
  std::map<std::tuple<CopyKind, std::int32_t, std::int32_t>, TransferTotals> pairs;
  std::map<CopyKind, TransferTotals> kinds;
  TransferReport report;
  for (std::size_t row = 0; row < table.size(); ++row) {
    const auto [src, dst] = copy_endpoints(table, row);
    const auto kind = table.copy_kind[row];
    const std::int64_t start = table.start_ns[row], end = table.end_ns[row];
    const std::int64_t duration = std::max<std::int64_t>(0, end - start);
    const std::int64_t bytes = table.bytes[row] == trace::kUnknown ? 0 : table.bytes[row];
    const std::int64_t hidden = duration > 0 ? length_within(compute.for_devices(src, dst), start, end) : 0;
    add(pairs[{kind, src, dst}], bytes, duration, duration - hidden);
    add(kinds[kind], bytes, duration, duration - hidden);
    if (kind == CopyKind::host_to_device && table.src_memory_kind[row] == trace::MemoryKind::pageable) {
      add(report.pageable_host_to_device, bytes, duration, duration - hidden);
    }
  }
  for (const auto& [key, totals] : pairs) {
    report.pairs.push_back({std::get<0>(key), std::get<1>(key), std::get<2>(key), totals});
  }
  for (const auto& [kind, totals] : kinds) report.kinds.push_back({kind, totals});
  report.matrix = build_matrix(report.pairs);
  report.host_staged = find_host_staged(table);
  return report;
}

std::vector<MatrixEntry> matrix_entries(const TransferMatrix& matrix) {
  std::vector<MatrixEntry> entries;
  for (std::size_t s = 0; s < matrix.devices.size() && s < matrix.cells.size(); ++s) {
    for (std::size_t d = 0; d < matrix.devices.size() && d < matrix.cells[s].size(); ++d) {
      if (matrix.cells[s][d].count > 0) entries.push_back({matrix.devices[s], matrix.devices[d], matrix.cells[s][d]});
    }
  }
  return entries;
}

}  // namespace gpuprof::analysis
