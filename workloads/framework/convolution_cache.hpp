#pragma once

#include <compare>
#include <string>
#include <vector>

#include "convolution_measurement.hpp"
#include "element_type.hpp"
#include "measurement_cache.hpp"

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

// Find measurements by key, shared by every layer and replica with that key.
using ConvolutionCache = MeasurementCache<ConvolutionKey, ConvolutionMeasurement>;

// The process's cache, shared by every layer and replica.
ConvolutionCache& convolution_cache();

}  // namespace gpuprof::workloads
