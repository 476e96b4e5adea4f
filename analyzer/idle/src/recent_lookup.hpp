#pragma once

// The few keys looked up last and what they gave, searched before a costlier lookup. Walks over API calls
// ask for the calling thread's entry at every call, and launching threads' calls interleave: the thread
// asked for has almost always been asked for a few calls before, where a map lookup per call was a fifth
// of such a walk.

#include <array>
#include <cstddef>
#include <utility>

namespace gpuprof::idle {

template <typename Key, typename Value, std::size_t kKept>
class RecentLookup {
 public:
  // What `key` gave last, or `find(key)` (then kept, in place of the oldest kept one).
  template <typename Find>
  Value get(Key key, Find&& find) {
    for (std::size_t i = 0; i < count_; ++i) {
      if (recent_[i].first == key) return recent_[i].second;
    }
    const Value found = find(key);
    auto& slot = count_ < kKept ? recent_[count_++] : recent_[std::exchange(oldest_, (oldest_ + 1) % kKept)];
    slot = {key, found};
    return found;
  }

 private:
  std::array<std::pair<Key, Value>, kKept> recent_{};
  std::size_t count_ = 0, oldest_ = 0;
};

}  // namespace gpuprof::idle
