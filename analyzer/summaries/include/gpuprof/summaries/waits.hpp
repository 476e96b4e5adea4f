#pragma once

// The time a group of kernels spent waiting to start (call start to kernel start), overlaps counted once:
// the waits of one kernel name overlap (a queue of them launched back to back), and their sum could exceed
// the trace. Waits are merged as they come: a wait that starts no earlier than the one before it and
// within the last merged piece extends that piece, so a group whose waits come in a few ordered runs
// (stream after stream, each by launch) holds a few pieces, not a pair of times per kernel. Any order is
// right; an unordered one only keeps more pieces.

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace gpuprof::summaries {

class WaitUnion {
 public:
  using Piece = std::pair<std::int64_t, std::int64_t>;  // [from, to)

  void add(std::int64_t from, std::int64_t to) {
    if (!pieces_.empty() && from >= last_from_ && from <= pieces_.back().second) {
      pieces_.back().second = std::max(pieces_.back().second, to);
    } else {
      pieces_.emplace_back(from, to);
    }
    last_from_ = from;
  }

  // The length of the union of every wait added. `buffer`: sort_runs' merge buffer, shared between groups.
  std::int64_t total(std::vector<Piece>& buffer);

  std::size_t pieces() const { return pieces_.size(); }

 private:
  std::vector<Piece> pieces_;
  std::int64_t last_from_ = 0;
};

}  // namespace gpuprof::summaries
