#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <utility>
#include <vector>

#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include "deterministic_random.hpp"
#include "device_array.hpp"
#include "element_type.hpp"

namespace gpuprof::workloads::testing {

inline std::vector<float> random_values(std::size_t count, std::uint64_t seed, double low = -1.0,
                                        double high = 1.0) {
  DeterministicRandom random(seed);
  std::vector<float> values(count);
  for (float& value : values) value = static_cast<float>(random.uniform(low, high));
  return values;
}

template <typename T>
DeviceArray<T> to_device(const std::vector<T>& values) {
  DeviceArray<T> array(values.size(), "test data");
  GPUPROF_CHECK(cudaMemcpy(array.data(), values.data(), values.size() * sizeof(T), cudaMemcpyHostToDevice));
  return array;
}

template <typename T>
std::vector<T> to_host(const T* device, std::size_t count) {
  GPUPROF_CHECK(cudaDeviceSynchronize());
  std::vector<T> values(count);
  GPUPROF_CHECK(cudaMemcpy(values.data(), device, count * sizeof(T), cudaMemcpyDeviceToHost));
  return values;
}

// The nearest bf16 value (ties to even), as a float: inputs that bf16 holds exactly let a
// float64 reference and a bf16 GPU run start from the same numbers.
inline float round_to_bf16(float value) {
  std::uint32_t bits = 0;
  std::memcpy(&bits, &value, sizeof bits);
  bits = (bits + 0x7FFFU + ((bits >> 16) & 1U)) & 0xFFFF0000U;
  std::memcpy(&value, &bits, sizeof bits);
  return value;
}

inline std::vector<float> rounded_to_bf16(std::vector<float> values) {
  for (float& value : values) value = round_to_bf16(value);
  return values;
}

// bf16 tests start from numbers bf16 holds exactly; fp32 tests keep theirs.
inline std::vector<float> exact_in(bool bf16, std::vector<float> values) {
  return bf16 ? rounded_to_bf16(std::move(values)) : values;
}

// Host floats into a device buffer of `type` (rounded on the GPU when bf16).
inline ActivationBuffer to_device_as(ElementType type, const std::vector<float>& values) {
  const DeviceArray<float> staged = to_device(values);
  ActivationBuffer buffer(type, values.size(), "test data");
  launch_store_as(type, staged.data(), buffer.data(), static_cast<long long>(values.size()), nullptr);
  GPUPROF_CHECK(cudaDeviceSynchronize());
  return buffer;
}

// A device buffer of any element type back to host floats.
inline std::vector<float> to_host_floats(const ActivationBuffer& buffer) {
  DeviceArray<float> widened(buffer.size(), "test result");
  GPUPROF_CHECK(cudaDeviceSynchronize());
  launch_load_from(buffer.type(), buffer.data(), widened.data(), static_cast<long long>(buffer.size()), nullptr);
  return to_host(widened.data(), widened.size());
}

inline void expect_close(const std::vector<float>& actual, const std::vector<double>& expected,
                         double tolerance, const char* what) {
  ASSERT_EQ(actual.size(), expected.size()) << what;
  for (std::size_t i = 0; i < actual.size(); ++i) {
    EXPECT_NEAR(actual[i], expected[i], tolerance * (1.0 + std::fabs(expected[i]))) << what << " [" << i << "]";
  }
}

// Central differences of a scalar loss with respect to selected entries of `values`,
// compared with the analytic gradient. `loss` reads the current `values`.
inline void expect_gradient_matches_differences(std::vector<float>& values, const std::vector<float>& analytic,
                                                const std::function<double()>& loss,
                                                const std::vector<std::size_t>& indices, double step,
                                                double tolerance, const char* what) {
  for (std::size_t index : indices) {
    const float original = values[index];
    values[index] = original + static_cast<float>(step);
    const double above = loss();
    values[index] = original - static_cast<float>(step);
    const double below = loss();
    values[index] = original;
    const double difference = (above - below) / (2.0 * step);
    EXPECT_NEAR(analytic[index], difference, tolerance * (1.0 + std::fabs(difference)))
        << what << " parameter " << index;
  }
}

inline std::vector<std::size_t> spread_indices(std::size_t count, std::size_t wanted) {
  std::vector<std::size_t> indices;
  const std::size_t stride = std::max<std::size_t>(1, count / wanted);
  for (std::size_t i = stride / 2; i < count; i += stride) indices.push_back(i);
  return indices;
}

}  // namespace gpuprof::workloads::testing
