#pragma once

#include <cstddef>
#include <string>
#include <utility>

#include <cuda_runtime_api.h>

#include "cuda_check.hpp"

namespace gpuprof::workloads {

// cudaMalloc on the current device; out of memory becomes one line naming the
// allocation, its size and the device's free memory, with the usual remedy.
void* allocate_device_bytes(std::size_t bytes, const std::string& what);

// An owned array in the current device's memory. Move-only; freed on destruction.
template <typename T>
class DeviceArray {
 public:
  DeviceArray() = default;
  DeviceArray(std::size_t count, const std::string& what)
      : data_(static_cast<T*>(allocate_device_bytes(count * sizeof(T), what))), count_(count) {}
  ~DeviceArray() { release(); }
  DeviceArray(const DeviceArray&) = delete;
  DeviceArray& operator=(const DeviceArray&) = delete;
  DeviceArray(DeviceArray&& other) noexcept
      : data_(std::exchange(other.data_, nullptr)), count_(std::exchange(other.count_, 0)) {}
  DeviceArray& operator=(DeviceArray&& other) noexcept {
    if (this != &other) {
      release();
      data_ = std::exchange(other.data_, nullptr);
      count_ = std::exchange(other.count_, 0);
    }
    return *this;
  }

  T* data() { return data_; }
  const T* data() const { return data_; }
  std::size_t size() const { return count_; }
  std::size_t bytes() const { return count_ * sizeof(T); }

  void zero(cudaStream_t stream) {
    if (count_ > 0) GPUPROF_CHECK(cudaMemsetAsync(data_, 0, bytes(), stream));
  }
  // Copies from host memory; ordered on `stream` (blocking for pageable memory).
  void upload(const T* host, std::size_t count, cudaStream_t stream) {
    GPUPROF_CHECK(cudaMemcpyAsync(data_, host, count * sizeof(T), cudaMemcpyHostToDevice, stream));
  }
  void download(T* host, std::size_t count, cudaStream_t stream) const {
    GPUPROF_CHECK(cudaMemcpyAsync(host, data_, count * sizeof(T), cudaMemcpyDeviceToHost, stream));
  }

 private:
  void release() {
    if (data_ != nullptr) cudaFree(data_);  // failure here cannot be reported from a destructor
    data_ = nullptr;
  }
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace gpuprof::workloads
