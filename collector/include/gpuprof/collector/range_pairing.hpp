#pragma once

// NVTX ranges reach CUPTI as two MARKER records (START, END) sharing an id,
// for push/pop and start/end ranges alike, plus an optional MARKER_DATA record
// with the same id carrying the category. This class pairs them.

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace gpuprof::collector {

struct PairedRange {
  std::string name;
  std::optional<std::string> domain;
  std::optional<std::int64_t> process_id, thread_id;
  std::optional<std::int32_t> device;
  std::optional<std::int64_t> stream;
  std::int64_t start_ns = 0, end_ns = 0;
  std::optional<std::int64_t> category;
};

class RangePairing {
 public:
  // Opens a range; a second START with an id still open replaces the first
  // (CUPTI reuses ids only after the END) and counts it as unclosed.
  void start(std::uint32_t id, PairedRange range);
  // Closes a range; nullopt when no range with this id is open.
  std::optional<PairedRange> end(std::uint32_t id, std::int64_t end_ns);
  // An NVTX mark: a range of length zero, held so that its category can still arrive.
  void instant(std::uint32_t id, PairedRange range);
  // Applies a MARKER_DATA category to the open or just-completed range with this id,
  // or keeps it for a START that has not arrived yet.
  void set_category(std::uint32_t id, std::int64_t category);

  // Completed ranges since the last call; their categories can no longer change.
  std::vector<PairedRange> take_completed();
  std::size_t open_count() const { return open_.size(); }
  std::uint64_t replaced_count() const { return replaced_; }

 private:
  std::unordered_map<std::uint32_t, PairedRange> open_;
  std::vector<std::pair<std::uint32_t, PairedRange>> completed_;
  std::unordered_map<std::uint32_t, std::int64_t> early_categories_;
  std::uint64_t replaced_ = 0;
};

}  // namespace gpuprof::collector
