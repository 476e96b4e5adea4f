#pragma once

// How the loader stores checked values into the model's columns, one row at a
// time (`OneRow`: a row read from SQL, or a chunk row that needs its own rule
// check) or a whole decoded chunk at once (`ChunkRows`: every row of the chunk
// keeps every rule). A table's reader is written once, against `put`, and
// serves both: the chunk form appends each column in one loop instead of one
// push_back per value and row (the per-row stores were most of loading a
// chunked trace, more than decoding it).

#include <cstddef>
#include <cstdint>
#include <iterator>
#include <type_traits>
#include <vector>

#include "event_chunks.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_sorting.hpp"

namespace gpuprof::trace {

// The stored form of a value read as (NULL?, integer): NULL reads as integer 0, as SQL's does.
namespace stored {
inline constexpr auto i64 = [](bool, std::int64_t value) { return value; };
inline constexpr auto i64_or_unknown = [](bool null, std::int64_t value) { return null ? kUnknown : value; };
inline constexpr auto i32_or_unknown = [](bool null, std::int64_t value) {
  return null ? kUnknown32 : static_cast<std::int32_t>(value);
};
inline constexpr auto string_id = [](bool, std::int64_t value) { return static_cast<StringId>(value); };
inline constexpr auto string_id_or_none = [](bool null, std::int64_t value) {
  return null ? kNoString : static_cast<StringId>(value);
};
// Code 0 is each enum's unknown.
template <typename Enum>
inline constexpr auto code = [](bool null, std::int64_t value) { return static_cast<Enum>(null ? 0 : value); };
}  // namespace stored

namespace detail {
// The values value_of(0), value_of(1), ... as an iterator vector::insert can size first.
template <typename T, typename ValueOf>
struct Generated {
  using iterator_category = std::random_access_iterator_tag;
  using value_type = T;
  using difference_type = std::ptrdiff_t;
  using pointer = const T*;
  using reference = T;
  const ValueOf* of;
  std::size_t at;
  T operator*() const { return (*of)(at); }
  Generated& operator++() { return ++at, *this; }
  Generated operator++(int) { return {of, at++}; }
  Generated& operator--() { return --at, *this; }
  Generated& operator+=(difference_type n) { return at += static_cast<std::size_t>(n), *this; }
  difference_type operator-(const Generated& other) const {
    return static_cast<difference_type>(at) - static_cast<difference_type>(other.at);
  }
  bool operator==(const Generated& other) const { return at == other.at; }
};
}  // namespace detail

// Appends value_of(0) ... value_of(rows - 1), each written once: no zero fill
// first (resize would write every new value twice, the first time into fresh pages).
template <typename T, typename ValueOf>
void append_generated(std::vector<T>& into, std::size_t rows, const ValueOf& value_of) {
  using Generated = detail::Generated<T, ValueOf>;
  into.insert(into.end(), Generated{&value_of, 0}, Generated{&value_of, rows});
}

// One row's values (`Values`: a RowValues read from SQL or a ChunkRow read in place).
template <typename Values>
class OneRow {
 public:
  explicit OneRow(const Values& values) : values_(values) {}
  bool is_null(int column) const { return values_.is_null(column); }
  std::int64_t i64(int column) const { return values_.i64(column); }

  template <typename Convert>
  auto get(int column, const Convert& convert) const {
    return convert(is_null(column), i64(column));
  }
  template <typename Each>
  void each_row(const Each& each) const {
    each(*this);
  }

  template <typename T, typename Convert>
  void put(std::vector<T>& into, int column, const Convert& convert) const {
    into.push_back(convert(is_null(column), i64(column)));
  }
  template <typename T, typename Convert>
  void put(RunColumn<T>& into, int column, const Convert& convert) const {
    into.push_back(convert(is_null(column), i64(column)));
  }
  // Grid or block: three columns, {0, 0, 0} where the first is NULL.
  void put_dim3(std::vector<Dim3>& into, int first) const { into.push_back(dim3(first)); }
  // A GPU row's (device, stream): the stream grouping, not columns.
  void put_stream(StreamsOfRows& into, int device, int stream) const {
    into.add(static_cast<std::int32_t>(i64(device)), stored::i64_or_unknown(is_null(stream), i64(stream)));
  }
  Dim3 dim3(int first) const {
    if (is_null(first)) return {0, 0, 0};
    const auto at = [this](int column) { return static_cast<std::int32_t>(i64(column)); };
    return {at(first), at(first + 1), at(first + 2)};
  }

 private:
  const Values& values_;
};

// Every row of a decoded chunk whose rows all keep their rules.
class ChunkRows {
 public:
  explicit ChunkRows(const ChunkDecoder& decoder) : decoder_(decoder), rows_(static_cast<std::size_t>(decoder.rows())) {}
  std::size_t rows() const { return rows_; }
  // For a reader that takes one row at a time.
  template <typename Each>
  void each_row(const Each& each) const {
    for (std::size_t at = 0; at < rows_; ++at) {
      const ChunkRow row(decoder_, at);
      each(OneRow<ChunkRow>(row));
    }
  }

  template <typename T, typename Convert>
  void put(std::vector<T>& into, int column, const Convert& convert) const {
    const auto* values = decoder_.column_values(column);
    const auto* nulls = decoder_.column_nulls(column);
    if (values == nullptr) {  // not stored: every row NULL
      into.insert(into.end(), rows_, static_cast<T>(convert(true, 0)));
    } else if (nulls == nullptr) {
      append_generated(into, rows_, [values, &convert](std::size_t at) { return convert(false, values[at]); });
    } else {
      append_generated(into, rows_,
                       [values, nulls, &convert](std::size_t at) { return convert(nulls[at] != 0, values[at]); });
    }
  }
  template <typename T, typename Convert>
  void put(RunColumn<T>& into, int column, const Convert& convert) const {
    for_each_run([&](std::size_t at) { return convert(is_null(column, at), value(column, at)); },
                 [&into](T run_value, std::size_t rows) { into.append(run_value, rows); });
  }
  void put_dim3(std::vector<Dim3>& into, int first) const;
  void put_stream(StreamsOfRows& into, int device, int stream) const {
    for_each_run(
        [&](std::size_t at) {
          return std::pair(static_cast<std::int32_t>(value(device, at)),
                           stored::i64_or_unknown(is_null(stream, at), value(stream, at)));
        },
        [&into](const std::pair<std::int32_t, std::int64_t>& key, std::size_t rows) {
          into.add_run(key.first, key.second, rows);
        });
  }

 private:
  bool is_null(int column, std::size_t at) const { return decoder_.is_null(column, at); }
  std::int64_t value(int column, std::size_t at) const { return decoder_.value(column, at); }
  // Hands each run of rows with equal key_of(row) to `run`: columns constant over long runs.
  template <typename KeyOf, typename Run>
  void for_each_run(const KeyOf& key_of, const Run& run) const {
    if (rows_ == 0) return;
    auto key = key_of(0);
    std::size_t first = 0;
    for (std::size_t at = 1; at < rows_; ++at) {
      auto next = key_of(at);
      if (next == key) continue;
      run(key, at - first);
      key = next, first = at;
    }
    run(key, rows_ - first);
  }

  const ChunkDecoder& decoder_;
  std::size_t rows_;
};

inline void ChunkRows::put_dim3(std::vector<Dim3>& into, int first) const {
  append_generated(into, rows_, [this, first](std::size_t at) {
    if (is_null(first, at)) return Dim3{0, 0, 0};
    const auto of = [this, at](int column) { return static_cast<std::int32_t>(value(column, at)); };
    return Dim3{of(first), of(first + 1), of(first + 2)};
  });
}

}  // namespace gpuprof::trace
