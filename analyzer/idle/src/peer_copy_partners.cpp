#include "gpuprof/idle/peer_copy_partners.hpp"

#include <algorithm>
#include <iterator>
#include <map>
#include <optional>
#include <tuple>

#include "gpuprof/analysis/transfers.hpp"

namespace gpuprof::idle {
namespace {

using DeviceEnds = std::map<std::int32_t, std::vector<std::int64_t>>;  // device → ends of its work, sorted

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
DeviceEnds work_ends(const trace::TraceModel& model, DeviceEnds wanted) {
  // Sized before they are filled: a partner's work is millions of rows in a large trace.
  std::map<std::int32_t, std::size_t> rows;
  for (const auto* slices : {&model.kernel_streams, &model.memset_streams, &model.memcpy_streams}) {
    for (const auto& slice : *slices) rows[slice.device] += slice.end - slice.begin;
  }
  for (auto& [device, ends] : wanted) ends.reserve(rows[device]);
  const auto add = [&wanted](const trace::GpuColumns& table, const std::vector<trace::StreamSlice>& slices) {
    for (const auto& slice : slices) {
      const auto found = wanted.find(slice.device);
      if (found == wanted.end()) continue;
      for (std::size_t row = slice.begin; row < slice.end; ++row) found->second.push_back(table.end_ns[row]);
    }
  };
  add(model.kernels, model.kernel_streams);
  add(model.memsets, model.memset_streams);
  add(model.memcpys, model.memcpy_streams);
  for (auto& [device, ends] : wanted) std::sort(ends.begin(), ends.end());
  return wanted;
}

}  // namespace

PeerCopyPartners find_peer_copy_partners(const trace::TraceModel& model) {
  PeerCopyPartners result;
  const auto& table = model.memcpys;
  const auto devices = model.device_ids();
  std::vector<std::pair<std::size_t, std::int32_t>> copies;  // (row, partner)
  DeviceEnds partners;
  for (std::size_t row = 0; row < table.size(); ++row) {
    if (table.copy_kind[row] != trace::CopyKind::peer_to_peer) continue;
    const auto partner = partner_of(table, row, devices);
    if (!partner) {
      ++result.ignored;
      continue;
    }
    copies.emplace_back(row, *partner);
    partners[*partner];
  }
  if (copies.empty()) return result;
  const auto ends = work_ends(model, std::move(partners));
  for (const auto& [row, partner] : copies) {
    const auto& partner_ends = ends.at(partner);
    const auto start = table.start_ns[row];
    const auto after = std::upper_bound(partner_ends.begin(), partner_ends.end(), start);
    if (after == partner_ends.begin()) continue;  // the partner did nothing before the copy
    result.copies.push_back({table.device[row], start, partner, *std::prev(after)});
  }
  std::sort(result.copies.begin(), result.copies.end(), [](const PeerCopyPartner& a, const PeerCopyPartner& b) {
    return std::tie(a.device, a.start_ns, a.partner_ready_ns) < std::tie(b.device, b.start_ns, b.partner_ready_ns);
  });
  return result;
}

}  // namespace gpuprof::idle
