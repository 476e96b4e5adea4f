#include "gpuprof/gui/copy_arrows.hpp"

#include <algorithm>
#include <map>
#include <tuple>

#include "gpuprof/gui/lod_merge.hpp"
#include "gpuprof/gui/timeline_painter.hpp"

namespace gpuprof::gui {
namespace {

// The vertical middle of each shown GPU row of `rank`, by device.
std::map<std::int32_t, double> device_rows(const Session& session, const TimelineLayout& layout, std::size_t rank,
                                           int scroll_y) {
  std::map<std::int32_t, double> middles;
  for (const auto& place : layout.rows) {
    if (place.rank != rank || !place.row) continue;
    const auto& row = session.ranks[rank]->timeline.rows[*place.row];
    if (row.kind == RowKind::device) middles[row.device] = row_top(place, scroll_y) + place.height / 2.0;
  }
  return middles;
}

void add_rank(const Session& session, const TimelineLayout& layout, const TimeAxis& axis, std::size_t rank,
              int scroll_y, std::vector<CopyArrow>& out) {
  const auto middles = device_rows(session, layout, rank, scroll_y);
  if (middles.size() < 2) return;
  const auto& loaded = *session.ranks[rank];
  const auto& copies = loaded.model.memcpys;
  const auto rank_axis = layout.rank_axis(axis, rank);
  std::vector<DrawBlock> blocks;
  for (const auto& row : loaded.timeline.rows) {
    for (const auto& lane : row.lanes) {
      if (lane.kind != LaneKind::memcpys) continue;
      const auto view = lane_view(loaded.model, lane);
      merge_visible(view, rank_axis, blocks, kMinCopyPx);
      for (const auto& block : blocks) {
        // A merged block is a run of narrow copies; a lone copy may be narrow too.
        if (block.merged() || block.x1 - block.x0 < kMinCopyPx) continue;
        const std::size_t copy = view.row(block.first);
        if (copies.copy_kind[copy] != trace::CopyKind::peer_to_peer) continue;
        const auto src = middles.find(copies.src_device[copy]), dst = middles.find(copies.dst_device[copy]);
        if (src == middles.end() || dst == middles.end() || src == dst) continue;
        out.push_back({QPointF(kLabelWidth + block.x0, src->second), QPointF(kLabelWidth + block.x1, dst->second), rank,
                       src->first, dst->first, 1});
      }
    }
  }
}

}  // namespace

std::vector<CopyArrow> merge_close_arrows(std::vector<CopyArrow> arrows, double merge_px) {
  std::stable_sort(arrows.begin(), arrows.end(), [](const CopyArrow& a, const CopyArrow& b) {
    return std::tie(a.rank, a.src_device, a.dst_device) < std::tie(b.rank, b.src_device, b.dst_device) ||
           (std::tie(a.rank, a.src_device, a.dst_device) == std::tie(b.rank, b.src_device, b.dst_device) &&
            a.from.x() < b.from.x());
  });
  std::vector<CopyArrow> merged;
  double last_start = 0;
  for (const auto& arrow : arrows) {
    const bool same_pair = !merged.empty() && merged.back().rank == arrow.rank &&
                           merged.back().src_device == arrow.src_device && merged.back().dst_device == arrow.dst_device;
    if (same_pair && arrow.from.x() - last_start < merge_px) {
      auto& into = merged.back();
      into.count += arrow.count;
      if (arrow.to.x() > into.to.x()) into.to = arrow.to;
    } else {
      merged.push_back(arrow);
    }
    last_start = arrow.from.x();
  }
  return merged;
}

std::vector<CopyArrow> copy_arrows(const Session& session, const TimelineLayout& layout, const TimeAxis& axis,
                                   int scroll_y) {
  std::vector<CopyArrow> arrows;
  for (std::size_t rank = 0; rank < session.ranks.size(); ++rank) {
    add_rank(session, layout, axis, rank, scroll_y, arrows);
  }
  return merge_close_arrows(std::move(arrows));
}

}  // namespace gpuprof::gui
