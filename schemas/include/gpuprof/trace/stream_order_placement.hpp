#pragma once

// Where each row of a GPU table, read again in the file's order, stands in the
// table as the loader sorted it (sort_by_device_stream_start: grouped by device
// and stream, stably by start within each). A second pass over a table can then
// fill more columns of the loaded rows without keeping a permutation per row in
// the model, or sorting again.
//
// Rows of one stream that the file holds in start order (what writers produce)
// go to the next row of their stream; the first row out of that order switches
// to a search by start, with the rows already placed skipped by a "next free
// row" forest (4 bytes a row, allocated only then).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::trace {

class StreamOrderPlacement {
 public:
  // `sorted` and `slices` as the loader left them; both must outlive this object.
  StreamOrderPlacement(const GpuColumns& sorted, std::span<const StreamSlice> slices);

  // The sorted row of the next file row with these values: the first row of its stream with this start not
  // placed yet, when it also has this end. Nullopt when there is none: the file holds a row the loaded table
  // did not (it changed since), and nothing is placed.
  std::optional<std::size_t> place(std::int32_t device, std::int64_t stream, std::int64_t start_ns,
                                   std::int64_t end_ns);

  std::size_t placed() const { return placed_; }
  // Whether every row of the table got its file row.
  bool complete() const { return placed_ == table_->size(); }

 private:
  std::optional<std::size_t> slice_of(std::int32_t device, std::int64_t stream);
  std::size_t next_free(std::size_t row);
  void search_from_now_on();

  const GpuColumns* table_;  // a pointer, so that a placement can be assigned
  std::span<const StreamSlice> slices_;
  std::vector<std::size_t> cursor_;     // per slice: its next row while the file is in start order
  std::vector<std::uint32_t> parent_;   // once it is not: a placed row points past itself
  std::size_t last_slice_ = 0, placed_ = 0;
};

}  // namespace gpuprof::trace
