#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <numeric>
#include <type_traits>
#include <utility>
#include <vector>

#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::trace {

// Moves rows within every loaded column of a table: row to(k) takes the value
// of row from(k), for k < count, every value read before any is written. Each
// column's values are gathered into one scratch buffer, then written back (a
// RunColumn is spread out, moved and gathered into runs again: its runs are
// few). New memory costs more than copying here (the kernel zeroes every new
// page: a third of a large report's CPU), so one buffer serves every column.
// Not an in-place walk of a permutation's cycles: that chases one dependent
// index after another and measured 5x slower on 5 M shuffled kernel rows,
// where the gather's reads overlap.
namespace detail {

// 8-byte words, aligned for every column type, kept while large enough; left
// uninitialized, since every word used is written first.
class Scratch {
 public:
  template <typename Value>
  Value* for_values(std::size_t count) {
    static_assert(std::is_trivially_copyable_v<Value> && alignof(Value) <= alignof(std::int64_t));
    const std::size_t wanted = (count * sizeof(Value) + sizeof(std::int64_t) - 1) / sizeof(std::int64_t);
    if (words_ < wanted) buffer_ = std::make_unique_for_overwrite<std::int64_t[]>(words_ = wanted);
    return reinterpret_cast<Value*>(buffer_.get());
  }

 private:
  std::unique_ptr<std::int64_t[]> buffer_;
  std::size_t words_ = 0;
};

// A RunColumn is spread out, moved and gathered into runs again: its runs are few.
template <typename Value, typename From, typename To>
void move_run_column(RunColumn<Value>& column, std::size_t count, const From& from, const To& to) {
  if (column.runs() == 1) return;  // every row holds the same value
  std::vector<Value> values(column.begin(), column.end()), moved(count);
  for (std::size_t k = 0; k < count; ++k) moved[k] = values[from(k)];
  for (std::size_t k = 0; k < count; ++k) values[to(k)] = moved[k];
  column.clear();
  for (const auto value : values) column.push_back(value);
}

}  // namespace detail

template <typename Table, typename From, typename To>
void move_rows(Table& table, std::size_t count, const From& from, const To& to) {
  detail::Scratch scratch;
  table.visit_columns([&](auto& column) {
    if (column.empty()) return;  // a column that was not loaded
    using Column = std::decay_t<decltype(column)>;
    if constexpr (kIsRunColumn<Column>) {
      detail::move_run_column(column, count, from, to);
    } else {
      auto* moved = scratch.for_values<typename Column::value_type>(count);
      for (std::size_t k = 0; k < count; ++k) moved[k] = column[from(k)];
      for (std::size_t k = 0; k < count; ++k) column[to(k)] = moved[k];
    }
  });
}

// Reorders every column of a table by `order` (order[i] = old index of new row
// i). An order shorter than the table fills its first rows; the caller cuts the rest.
template <typename Table>
void apply_order(Table& table, const std::vector<std::uint32_t>& order) {
  move_rows(table, order.size(), [&order](std::size_t k) { return order[k]; }, [](std::size_t k) { return k; });
}

// A row that changes place: new row `to` is old row `from`.
struct RowMove {
  std::uint32_t to, from;
};

// Moves the rows of a table that change place (`moves`; every other row stays
// where it is), so the cost follows the rows moved, not the table's size.
template <typename Table>
void apply_moves(Table& table, const std::vector<RowMove>& moves) {
  move_rows(table, moves.size(), [&moves](std::size_t k) { return moves[k].from; },
            [&moves](std::size_t k) { return moves[k].to; });
}

// Sorts a host table by start time, stably. Traces arrive nearly sorted (each
// thread's records are appended in order), so the rows that keep the running
// maximum stay as they are and only the few others are sorted and merged in:
// O(n + k log k) for k rows out of place, O(n log n) at worst. Only the rows
// that change place are moved (a row out of place shifts the rows it passes by
// one, not the whole table).
template <typename Table>
void sort_by_start(Table& table) {
  const auto& start = table.start_ns;
  if (std::is_sorted(start.begin(), start.end())) return;
  const auto rows = static_cast<std::uint32_t>(start.size());
  std::vector<bool> out_of_place(rows);
  std::vector<std::uint32_t> out_of_order;
  for (std::uint32_t row = 0, last_in_order = 0; row < rows; ++row) {
    if (row > 0 && start[row] < start[last_in_order]) {
      out_of_place[row] = true;
      out_of_order.push_back(row);
    } else {
      last_in_order = row;
    }
  }
  // Ties keep the file's order, as a stable sort would.
  const auto before = [&start](std::uint32_t a, std::uint32_t b) {
    return start[a] < start[b] || (start[a] == start[b] && a < b);
  };
  std::sort(out_of_order.begin(), out_of_order.end(), before);
  std::vector<RowMove> moves;
  std::uint32_t to = 0;
  const auto place = [&moves, &to](std::uint32_t from) {
    if (from != to) moves.push_back({to, from});
    ++to;
  };
  auto next = out_of_order.begin();
  for (std::uint32_t row = 0; row < rows; ++row) {
    if (out_of_place[row]) continue;
    for (; next != out_of_order.end() && before(*next, row); ++next) place(*next);
    place(row);
  }
  for (; next != out_of_order.end(); ++next) place(*next);
  apply_moves(table, moves);
}

// Sorts memory events by (device, time), stably: an alloc and a free at the
// same time keep the order the source gave them.
void sort_by_device_time(MemoryEventTable& table);

// Sorts thread states by (thread, start), stably, and leaves out each stretch
// that starts before the previous kept stretch of its thread ends: a thread is
// on a CPU or off it, never both. Returns the stretches left out.
std::int64_t sort_thread_states_apart(ThreadStateTable& table);

// The runs of rows on one stream, in file order, and the distinct (device,
// stream) pairs in the order they first appear: 8 bytes a run while a table
// loads, where its device and stream columns would take 12 bytes a row (files
// hold each stream's rows in runs of thousands).
struct StreamsOfRows {
  struct Run {
    std::uint32_t key;   // index into keys
    std::uint32_t rows;  // a longer run is split
  };
  std::vector<std::pair<std::int32_t, std::int64_t>> keys;
  std::vector<Run> runs;

  void add(std::int32_t device, std::int64_t stream) { add_run(device, stream, 1); }
  void add_run(std::int32_t device, std::int64_t stream, std::size_t rows);

 private:
  // Streams are few (tens), but a hostile file may name millions: a map, and
  // the last key for the runs of rows on one stream.
  std::map<std::pair<std::int32_t, std::int64_t>, std::uint32_t> index_;
  std::uint32_t last_ = 0;
};

// Old rows [from, from + rows) become new rows [to, to + rows).
struct RowBlock {
  std::size_t from, to, rows;
};

// Where grouping by stream puts the rows: whole runs (`blocks`, by `to`), when
// every stream's runs follow one another in start order, as writers put them;
// else every row (`rows`: old index of new row i).
struct StreamOrder {
  std::vector<RowBlock> blocks;
  std::vector<std::uint32_t> rows;

  bool identity() const;
};

// Groups rows by (device, stream), in that order, and sorts each group by
// start, stably; fills `order` and returns the groups. One pass over the runs
// and the starts on the usual input; a stream whose rows are out of start
// order gets its rows sorted.
std::vector<StreamSlice> group_streams(const StreamsOfRows& streams, const std::vector<std::int64_t>& start_ns,
                                       StreamOrder& order);

// Moves whole blocks of rows within every loaded column of a table (`blocks`
// by `to`, covering rows [0, count)), a memcpy a block (a row-by-row gather read
// every value through an index). New memory costs more than copying here (the
// kernel zeroes every new page), so one buffer serves every column, as in
// move_rows: an int64 column is copied into `spare` and swapped with it, so
// the next takes its old storage and nothing is copied back; any other column
// is copied into that storage and back.
template <typename Table>
void move_blocks(Table& table, const std::vector<RowBlock>& blocks, std::size_t count) {
  std::vector<std::int64_t> spare;
  detail::Scratch scratch;  // only when no int64 column came first
  table.visit_columns([&](auto& column) {
    if (column.empty()) return;  // a column that was not loaded
    using Column = std::decay_t<decltype(column)>;
    using Value = typename Column::value_type;
    if constexpr (kIsRunColumn<Column>) {
      std::vector<std::size_t> from(count);
      for (const auto& block : blocks) std::iota(from.begin() + block.to, from.begin() + block.to + block.rows, block.from);
      detail::move_run_column(column, count, [&from](std::size_t k) { return from[k]; }, [](std::size_t k) { return k; });
    } else if constexpr (std::is_same_v<Value, std::int64_t>) {
      spare.clear();
      spare.reserve(count);
      for (const auto& block : blocks) {
        const auto first = column.begin() + static_cast<std::ptrdiff_t>(block.from);
        spare.insert(spare.end(), first, first + static_cast<std::ptrdiff_t>(block.rows));
      }
      column.swap(spare);  // `spare` now holds the column's old values, `count` of them
    } else {
      const bool spare_fits = spare.size() * sizeof(std::int64_t) >= count * sizeof(Value);
      auto* moved = spare_fits ? reinterpret_cast<Value*>(spare.data()) : scratch.for_values<Value>(count);
      for (const auto& block : blocks) {
        std::memcpy(moved + block.to, column.data() + block.from, block.rows * sizeof(Value));
      }
      std::memcpy(column.data(), moved, count * sizeof(Value));
    }
  });
}

// Puts a GPU table's rows in `order` (from group_streams), unless they are in
// it already, and sets its device and stream columns to one run per slice.
template <typename Table>
void order_by_streams(Table& table, const StreamOrder& order, const std::vector<StreamSlice>& slices) {
  table.device.clear(), table.stream.clear();
  if (!order.identity()) {
    if (order.rows.empty()) {
      move_blocks(table, order.blocks, table.size());
    } else {
      apply_order(table, order.rows);
    }
  }
  for (const auto& slice : slices) {
    table.device.append(slice.device, slice.end - slice.begin);
    table.stream.append(slice.stream, slice.end - slice.begin);
  }
}

template <typename Table>
std::vector<StreamSlice> sort_by_device_stream_start(Table& table) {
  StreamsOfRows streams;
  for (std::size_t i = 0; i < table.size(); ++i) streams.add(table.device[i], table.stream[i]);
  StreamOrder order;
  auto slices = group_streams(streams, table.start_ns, order);
  order_by_streams(table, order, slices);
  return slices;
}

}  // namespace gpuprof::trace
