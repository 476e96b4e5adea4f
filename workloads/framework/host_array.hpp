#pragma once

#include <cstddef>
#include <string>
#include <utility>

namespace gpuprof::workloads {

// Pinned (page-locked, cudaMallocHost) memory or ordinary pageable memory behind
// one interface, because the input pipeline's behaviour is what differs, not its code.
void* allocate_host_bytes(std::size_t bytes, bool pinned, const std::string& what);
void free_host_bytes(void* pointer, bool pinned);

template <typename T>
class HostArray {
 public:
  HostArray() = default;
  HostArray(std::size_t count, bool pinned, const std::string& what)
      : data_(static_cast<T*>(allocate_host_bytes(count * sizeof(T), pinned, what))),
        count_(count), pinned_(pinned) {}
  ~HostArray() { free_host_bytes(data_, pinned_); }
  HostArray(const HostArray&) = delete;
  HostArray& operator=(const HostArray&) = delete;
  HostArray(HostArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)),
        pinned_(other.pinned_) {}
  HostArray& operator=(HostArray&& other) noexcept {
    if (this != &other) {
      free_host_bytes(data_, pinned_);
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
      pinned_ = other.pinned_;
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  bool pinned() const { return pinned_; }

 private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
  bool pinned_ = false;
};

}  // namespace gpuprof::workloads
