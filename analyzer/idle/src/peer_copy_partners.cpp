#include "gpuprof/idle/peer_copy_partners.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <tuple>

#include "gpuprof/analysis/transfers.hpp"

namespace gpuprof::idle {
namespace {

// One device's work ends, stream by stream: each stream's rows end in order, so each is searched where it
// lies (a sorted copy of every end was 40 MB at 10 M events); a stream out of order is copied and sorted.
struct WorkEnds {
  std::vector<std::span<const std::int64_t>> streams;
  std::vector<std::vector<std::int64_t>> sorted_copies;

  // The latest end at or before `time`, if any.
  std::optional<std::int64_t> latest_until(std::int64_t time) const {
    std::optional<std::int64_t> latest;
    for (const auto ends : streams) {
      const auto after = std::upper_bound(ends.begin(), ends.end(), time);
      if (after != ends.begin()) latest = std::max(latest.value_or(*std::prev(after)), *std::prev(after));
    }
    return latest;
  }
};

// The other end of PtoP copy `row`, when the copy joins its own device to another device of the trace.
std::optional<std::int32_t> partner_of(const trace::MemcpyTable& table, std::size_t row,
                                       const std::vector<std::int32_t>& devices) {
  const auto [src, dst] = analysis::copy_endpoints(table, row);
  const auto device = table.device[row];
  if (src == dst || (src != device && dst != device)) return std::nullopt;
  const auto partner = src == device ? dst : src;
  if (!std::binary_search(devices.begin(), devices.end(), partner)) return std::nullopt;
  return partner;
}

// Only the partners' work is read: traces with peer copies are few, traces without them pay nothing.
std::map<std::int32_t, WorkEnds> work_ends(const trace::TraceModel& model, const std::set<std::int32_t>& partners) {
  std::map<std::int32_t, WorkEnds> wanted;
  for (const auto device : partners) wanted[device];
  const auto add = [&wanted](const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices) {
    for (const auto& slice : slices) {
      const auto found = wanted.find(slice.device);
      if (found == wanted.end() || slice.end == slice.begin) continue;
      auto ends = std::span<const std::int64_t>(table.end_ns).subspan(slice.begin, slice.end - slice.begin);
      if (!std::is_sorted(ends.begin(), ends.end())) {
        auto& copy = found->second.sorted_copies.emplace_back(ends.begin(), ends.end());
        std::sort(copy.begin(), copy.end());
        ends = copy;
      }
      found->second.streams.push_back(ends);
    }
  };
  add(model.kernels, model.kernel_streams);
  add(model.memsets, model.memset_streams);
  add(model.memcpys, model.memcpy_streams);
  // Many streams would make each search slow: those devices' ends are copied into one sorted array.
  constexpr std::size_t kMostStreams = 64;
  for (auto& [device, ends] : wanted) {
    if (ends.streams.size() <= kMostStreams) continue;
    std::vector<std::int64_t> all;
    for (const auto stream : ends.streams) all.insert(all.end(), stream.begin(), stream.end());
    std::sort(all.begin(), all.end());
    ends = WorkEnds{};
    ends.streams.push_back(ends.sorted_copies.emplace_back(std::move(all)));
  }
  return wanted;
}

}  // namespace

PeerCopyPartners find_peer_copy_partners(const trace::TraceModel& model) {
  PeerCopyPartners result;
  const auto& table = model.memcpys;
  const auto devices = model.device_ids();
  std::vector<std::pair<std::size_t, std::int32_t>> copies;  // (row, partner)
  std::set<std::int32_t> partners;
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (table.copy_kind[row] != trace::CopyKind::peer_to_peer) continue;
    const auto partner = partner_of(table, row, devices);
    if (!partner) {
      ++result.ignored;
      continue;
    }
    copies.emplace_back(row, *partner);
    partners.insert(*partner);
  }
  if (copies.empty()) return result;
  const auto ends = work_ends(model, partners);
  for (const auto& [row, partner] : copies) {
    const auto start = table.start_ns[row];
    const auto ready = ends.at(partner).latest_until(start);
    if (!ready) continue;  // the partner did nothing before the copy
    result.copies.push_back({table.device[row], start, partner, *ready});
  }
  std::sort(result.copies.begin(), result.copies.end(), [](const PeerCopyPartner& a, const PeerCopyPartner& b) {
    return std::tie(a.device, a.start_ns, a.partner_ready_ns) < std::tie(b.device, b.start_ns, b.partner_ready_ns);
  });
  return result;
}

}  // namespace gpuprof::idle
