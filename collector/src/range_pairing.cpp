#include "gpuprof/collector/range_pairing.hpp"

namespace gpuprof::collector {
namespace {

// Categories whose START never came are forgotten beyond this many, so a stream
// of stray MARKER_DATA records cannot grow memory without bound.
constexpr std::size_t kMaxEarlyCategories = 4096;

}  // namespace

void RangePairing::start(std::uint32_t id, PairedRange range) {
  if (auto early = early_categories_.find(id); early != early_categories_.end()) {
    range.category = early->second;
    early_categories_.erase(early);
  }
  auto [position, inserted] = open_.insert_or_assign(id, std::move(range));
  if (!inserted) ++replaced_;
}

std::optional<PairedRange> RangePairing::end(std::uint32_t id, std::int64_t end_ns) {
  auto found = open_.find(id);
  if (found == open_.end()) return std::nullopt;
  PairedRange range = std::move(found->second);
  open_.erase(found);
  range.end_ns = end_ns;
  completed_.emplace_back(id, range);
  return range;
}

void RangePairing::instant(std::uint32_t id, PairedRange range) {
  range.end_ns = range.start_ns;
  if (auto early = early_categories_.find(id); early != early_categories_.end()) {
    range.category = early->second;
    early_categories_.erase(early);
  }
  completed_.emplace_back(id, std::move(range));
}

void RangePairing::set_category(std::uint32_t id, std::int64_t category) {
  if (auto found = open_.find(id); found != open_.end()) {
    found->second.category = category;
    return;
  }
  for (auto& [completed_id, range] : completed_) {
    if (completed_id == id) {
      range.category = category;
      return;
    }
  }
  if (early_categories_.size() >= kMaxEarlyCategories) early_categories_.clear();
  early_categories_[id] = category;
}

std::vector<PairedRange> RangePairing::take_completed() {
  std::vector<PairedRange> ranges;
  ranges.reserve(completed_.size());
  for (auto& [id, range] : completed_) ranges.push_back(std::move(range));
  completed_.clear();
  return ranges;
}

}  // namespace gpuprof::collector
