#pragma once

#include <cudnn.h>

#include "element_type.hpp"

namespace gpuprof::workloads {

// Image tensor dimensions and layout: channels-last (NHWC) is what cuDNN's tensor-core
// convolutions read without transposing; its FMA (fp32) kernels are at home in NCHW.
struct ImageShape {
  int batch = 0;
  int height = 0;
  int width = 0;
  int channels = 0;
  bool channels_last = true;
  ElementType element = ElementType::fp32;
  long long elements() const { return static_cast<long long>(batch) * height * width * channels; }
};

// Owning cuDNN descriptors (create in the constructor, destroy in the destructor).
class TensorDescriptor {
 public:
  TensorDescriptor();
  ~TensorDescriptor();
  TensorDescriptor(const TensorDescriptor&) = delete;
  TensorDescriptor& operator=(const TensorDescriptor&) = delete;
  // A tensor of the shape's element type in its layout.
  void set(const ImageShape& shape);
  cudnnTensorDescriptor_t get() const { return descriptor_; }

 private:
  cudnnTensorDescriptor_t descriptor_ = nullptr;
};

class FilterDescriptor {
 public:
  FilterDescriptor();
  ~FilterDescriptor();
  FilterDescriptor(const FilterDescriptor&) = delete;
  FilterDescriptor& operator=(const FilterDescriptor&) = delete;
  // Filters laid out [outputs][kernel][kernel][inputs] when channels_last, else
  // [outputs][inputs][kernel][kernel].
  void set(int outputs, int inputs, int kernel, bool channels_last, ElementType element);
  cudnnFilterDescriptor_t get() const { return descriptor_; }

 private:
  cudnnFilterDescriptor_t descriptor_ = nullptr;
};

class ConvolutionDescriptor {
 public:
  ConvolutionDescriptor();
  ~ConvolutionDescriptor();
  ConvolutionDescriptor(const ConvolutionDescriptor&) = delete;
  ConvolutionDescriptor& operator=(const ConvolutionDescriptor&) = delete;
  // Accumulates in fp32 whatever the data type (bf16 data: cuDNN's pseudo-bf16 configuration).
  void set(int padding, int stride, cudnnMathType_t math);
  // The math type of the algorithm chosen for the pass that uses this descriptor.
  void set_math(cudnnMathType_t math);
  cudnnConvolutionDescriptor_t get() const { return descriptor_; }

 private:
  cudnnConvolutionDescriptor_t descriptor_ = nullptr;
};

class PoolingDescriptor {
 public:
  PoolingDescriptor();
  ~PoolingDescriptor();
  PoolingDescriptor(const PoolingDescriptor&) = delete;
  PoolingDescriptor& operator=(const PoolingDescriptor&) = delete;
  void set(cudnnPoolingMode_t mode, int window, int padding, int stride);
  cudnnPoolingDescriptor_t get() const { return descriptor_; }

 private:
  cudnnPoolingDescriptor_t descriptor_ = nullptr;
};

// A ReLU for cuDNN's fused batch-norm epilogues.
class ActivationDescriptor {
 public:
  ActivationDescriptor();
  ~ActivationDescriptor();
  ActivationDescriptor(const ActivationDescriptor&) = delete;
  ActivationDescriptor& operator=(const ActivationDescriptor&) = delete;
  cudnnActivationDescriptor_t get() const { return descriptor_; }

 private:
  cudnnActivationDescriptor_t descriptor_ = nullptr;
};

}  // namespace gpuprof::workloads
