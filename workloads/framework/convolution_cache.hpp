#pragma once

#include <compare>
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "convolution_measurement.hpp"
#include "element_type.hpp"

namespace gpuprof::workloads {

// What makes two convolutions time alike: the shape at its batch, the layout, the element
// type, the math the precision allows and the GPU model. Two layers (or two replicas on GPUs
// of one model) with equal keys share one measurement.
struct ConvolutionKey {
  int batch = 0;
  int height = 0;
  int width = 0;
  int channels = 0;
  int outputs = 0;
  int kernel = 0;
  int stride = 0;
  int padding = 0;
  bool channels_last = false;
  ElementType element = ElementType::fp32;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::string gpu;
  friend auto operator<=>(const ConvolutionKey&, const ConvolutionKey&) = default;
};

// Every candidate measured for one convolution's three passes. The candidates, not the
// winners, are kept: a later, smaller workspace limit chooses again without timing again.
struct ConvolutionMeasurement {
  std::vector<MeasuredCandidate<cudnnConvolutionFwdAlgo_t>> forward;
  std::vector<MeasuredCandidate<cudnnConvolutionBwdDataAlgo_t>> data;
  std::vector<MeasuredCandidate<cudnnConvolutionBwdFilterAlgo_t>> filter;
};

// Measurements by key, measured at most once each. Thread-safe: a second caller with the
// same key waits for the first measurement rather than timing the GPU again.
class ConvolutionCache {
 public:
  ConvolutionMeasurement find_or_measure(const ConvolutionKey& key,
                                         const std::function<ConvolutionMeasurement()>& measure);
  std::size_t size() const;

 private:
  mutable std::mutex mutex_;
  std::map<ConvolutionKey, ConvolutionMeasurement> measurements_;
};

// The process's cache, shared by every layer and replica.
ConvolutionCache& convolution_cache();

}  // namespace gpuprof::workloads
