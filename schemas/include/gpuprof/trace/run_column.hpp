#pragma once

// A column whose value stays the same over long runs of rows, stored as one
// value per run: a GPU table's device and stream once its rows are grouped by
// stream (5 M kernels on 16 streams: 16 entries instead of 60 MB), the process
// of a host table's rows (one process: one entry instead of 40 MB). Reading a
// row finds its run by binary search over the runs' ends, a few steps for the
// tens of runs these columns have; appending extends the last run or starts
// one. Adjacent runs never hold the same value, so equal columns are equal
// member by member. Values are read, never written in place.

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <vector>

namespace gpuprof::trace {

template <typename T>
class RunColumn {
 public:
  using value_type = T;
  using size_type = std::size_t;

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = T;
    using difference_type = std::ptrdiff_t;
    using pointer = void;
    using reference = T;
    const_iterator() = default;
    const_iterator(const RunColumn* column, std::size_t row) : column_(column), row_(row) {}
    T operator*() const { return (*column_)[row_]; }
    T operator[](difference_type n) const { return (*column_)[row_ + n]; }
    const_iterator& operator++() { return ++row_, *this; }
    const_iterator operator++(int) { return {column_, row_++}; }
    const_iterator& operator--() { return --row_, *this; }
    const_iterator operator--(int) { return {column_, row_--}; }
    const_iterator& operator+=(difference_type n) { return row_ += n, *this; }
    const_iterator& operator-=(difference_type n) { return row_ -= n, *this; }
    friend const_iterator operator+(const_iterator at, difference_type n) { return at += n; }
    friend const_iterator operator+(difference_type n, const_iterator at) { return at += n; }
    friend const_iterator operator-(const_iterator at, difference_type n) { return at -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) {
      return static_cast<difference_type>(a.row_) - static_cast<difference_type>(b.row_);
    }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.row_ == b.row_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.row_ <=> b.row_; }

   private:
    const RunColumn* column_ = nullptr;
    std::size_t row_ = 0;
  };
  using iterator = const_iterator;

  std::size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  // Row `row` (< size()).
  T operator[](std::size_t row) const {
    if (values_.size() == 1) return values_.front();
    return values_[static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), row) - ends_.begin())];
  }
  T front() const { return values_.front(); }
  T back() const { return values_.back(); }
  const_iterator begin() const { return {this, 0}; }
  const_iterator end() const { return {this, size_}; }

  void push_back(T value) { append(value, 1); }
  // Appends `rows` rows of `value`.
  void append(T value, std::size_t rows) {
    if (rows == 0) return;
    size_ += rows;
    if (!values_.empty() && values_.back() == value) {
      ends_.back() = size_;
    } else {
      values_.push_back(value), ends_.push_back(size_);
    }
  }
  // Runs are few: there is nothing to reserve per row.
  void reserve(std::size_t) {}
  void clear() { values_.clear(), ends_.clear(), size_ = 0; }
  void resize(std::size_t rows, T value = T{}) {
    if (rows >= size_) return append(value, rows - size_);
    const auto kept = static_cast<std::size_t>(std::upper_bound(ends_.begin(), ends_.end(), rows) - ends_.begin());
    const bool cut_inside = kept < ends_.size() && rows > (kept == 0 ? 0 : ends_[kept - 1]);
    values_.resize(kept + (cut_inside ? 1 : 0)), ends_.resize(values_.size());
    if (!ends_.empty()) ends_.back() = rows;
    size_ = rows;
  }

  // The runs, for a walk that needs no search: run i holds value(i) up to row end(i), exclusive.
  std::size_t runs() const { return values_.size(); }
  T run_value(std::size_t run) const { return values_[run]; }
  std::size_t run_end(std::size_t run) const { return ends_[run]; }
  // Calls `on_run(value)` as each run starts, then `on_row(value, row)` for each of its rows, in row order:
  // a walk of every row that reads the value once per run instead of searching for it per row.
  template <typename OnRow, typename OnRun>
  void for_each_row(OnRow&& on_row, OnRun&& on_run) const {
    std::size_t row = 0;
    for (std::size_t run = 0; run < values_.size(); ++run) {
      const T value = values_[run];
      on_run(value);
      for (const auto end = ends_[run]; row < end; ++row) on_row(value, row);
    }
  }
  template <typename OnRow>
  void for_each_row(OnRow&& on_row) const {
    for_each_row(on_row, [](T) {});
  }

  friend bool operator==(const RunColumn& a, const RunColumn& b) = default;
  friend bool operator==(const RunColumn& a, const std::vector<T>& b) {
    return a.size() == b.size() && std::equal(b.begin(), b.end(), a.begin());
  }

 private:
  std::vector<T> values_;
  std::vector<std::size_t> ends_;
  std::size_t size_ = 0;
};

template <typename Column>
inline constexpr bool kIsRunColumn = false;
template <typename T>
inline constexpr bool kIsRunColumn<RunColumn<T>> = true;

}  // namespace gpuprof::trace
