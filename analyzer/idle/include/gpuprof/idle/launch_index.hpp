#pragma once

// When and by which thread the GPU work starting at a time was launched, read where it already is: the
// model's GPU tables, whose stream slices are sorted by start (trace_model.hpp), and the correlation index.
// A copy of every launch sorted by GPU start was 24 bytes a launch (1.2 GB of fresh pages at 100 M events)
// for questions asked about the starts of busy intervals, a few gaps and the steps' starts. The model must
// outlive an index that reads it; `kept_at` keeps the answers a reader needs after the trace is freed.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::idle {

// One launched piece of work: its GPU start, the start of the API call that launched it, and the call's thread.
struct Launch {
  std::int64_t first = 0, second = 0;  // GPU start, call start
  std::int64_t thread = 0;
  friend auto operator<=>(const Launch&, const Launch&) = default;
};

class LaunchIndex {
 public:
  // Rows [begin, end) of one stream of a GPU table, sorted by start. Copies whose call holds the host are
  // not launches (HostCauses: the GPU waits for the host's staging).
  struct Part {
    const trace::GpuColumns* table = nullptr;
    std::size_t begin = 0, end = 0;
    bool copies = false;  // rows of model.memcpys: `copy_holds_host` applies
  };

  // Each question reads every part, so a device with more streams than this (a hostile trace puts each
  // kernel on a stream of its own) is answered from one merged copy of its launches, 24 bytes a launch,
  // keeping the cost O(launches · log) whatever the number of streams. Real traces have a few streams a device.
  static constexpr std::size_t kMostPartsReadInPlace = 64;

  LaunchIndex() = default;  // no launches
  LaunchIndex(const trace::ApiCallTable& api, const analysis::CorrelationIndex& correlations,
              std::shared_ptr<const std::vector<bool>> copy_holds_host, std::vector<Part> parts);

  // The earliest launch (by call start, then thread) of the work starting at `gpu_start`; nullopt when no
  // launch of work starting then is known.
  std::optional<Launch> earliest_at(std::int64_t gpu_start) const;
  // The same answers for `gpu_starts`, kept apart from the model; every other time finds none.
  LaunchIndex kept_at(std::span<const std::int64_t> gpu_starts) const;
  // Stream slices read where they are (0 once merged): for tests of the many-stream path.
  std::size_t parts_read_in_place() const { return parts_.size(); }

 private:
  friend class LaunchCursor;
  // Replaces the parts by `kept_`: the earliest launch of every GPU start of every part.
  void merge_parts();
  // Folds the launches of `part`'s rows from `row` on that start at `gpu_start` into `earliest`.
  void fold_at(const Part& part, std::size_t row, std::int64_t gpu_start, std::optional<Launch>& earliest) const;

  const trace::ApiCallTable* api_ = nullptr;
  const analysis::CorrelationIndex* correlations_ = nullptr;
  std::shared_ptr<const std::vector<bool>> copy_holds_host_;  // per memcpy row
  std::vector<Part> parts_;
  std::vector<Launch> kept_;  // kept_at or merge_parts: one per GPU start, sorted
};

// The same answers for times asked in order (an idle walk over busy intervals): each part is read forward
// from where the last time left it. A time before the last one asked finds nothing.
class LaunchCursor {
 public:
  explicit LaunchCursor(const LaunchIndex* index);
  std::optional<Launch> at(std::int64_t gpu_start);

 private:
  const LaunchIndex* index_;
  std::vector<std::size_t> next_;  // per part: its first row starting at or after the last time asked
  std::size_t next_kept_ = 0;
};

}  // namespace gpuprof::idle
