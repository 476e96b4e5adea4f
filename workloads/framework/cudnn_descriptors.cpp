#include "cudnn_descriptors.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {

// Destructors ignore failures: they cannot be reported from a destructor.

TensorDescriptor::TensorDescriptor() { GPUPROF_CHECK(cudnnCreateTensorDescriptor(&descriptor_)); }
TensorDescriptor::~TensorDescriptor() { cudnnDestroyTensorDescriptor(descriptor_); }

void TensorDescriptor::set(const ImageShape& s) {
  GPUPROF_CHECK(cudnnSetTensor4dDescriptor(descriptor_, s.channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW,
                                           cudnn_data_type(s.element), s.batch, s.channels, s.height, s.width));
}

FilterDescriptor::FilterDescriptor() { GPUPROF_CHECK(cudnnCreateFilterDescriptor(&descriptor_)); }
FilterDescriptor::~FilterDescriptor() { cudnnDestroyFilterDescriptor(descriptor_); }

void FilterDescriptor::set(int outputs, int inputs, int kernel, bool channels_last, ElementType element) {
  GPUPROF_CHECK(cudnnSetFilter4dDescriptor(descriptor_, cudnn_data_type(element),
                                           channels_last ? CUDNN_TENSOR_NHWC : CUDNN_TENSOR_NCHW, outputs, inputs,
                                           kernel, kernel));
}

ConvolutionDescriptor::ConvolutionDescriptor() { GPUPROF_CHECK(cudnnCreateConvolutionDescriptor(&descriptor_)); }
ConvolutionDescriptor::~ConvolutionDescriptor() { cudnnDestroyConvolutionDescriptor(descriptor_); }

void ConvolutionDescriptor::set(int padding, int stride, cudnnMathType_t math) {
  GPUPROF_CHECK(cudnnSetConvolution2dDescriptor(descriptor_, padding, padding, stride, stride, 1, 1,
                                                CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
  set_math(math);
}

void ConvolutionDescriptor::set_math(cudnnMathType_t math) {
  GPUPROF_CHECK(cudnnSetConvolutionMathType(descriptor_, math));
}

PoolingDescriptor::PoolingDescriptor() { GPUPROF_CHECK(cudnnCreatePoolingDescriptor(&descriptor_)); }
PoolingDescriptor::~PoolingDescriptor() { cudnnDestroyPoolingDescriptor(descriptor_); }

void PoolingDescriptor::set(cudnnPoolingMode_t mode, int window, int padding, int stride) {
  GPUPROF_CHECK(cudnnSetPooling2dDescriptor(descriptor_, mode, CUDNN_NOT_PROPAGATE_NAN, window, window, padding,
                                            padding, stride, stride));
}

ActivationDescriptor::ActivationDescriptor() {
  GPUPROF_CHECK(cudnnCreateActivationDescriptor(&descriptor_));
  GPUPROF_CHECK(cudnnSetActivationDescriptor(descriptor_, CUDNN_ACTIVATION_RELU, CUDNN_NOT_PROPAGATE_NAN, 0.0));
}
ActivationDescriptor::~ActivationDescriptor() { cudnnDestroyActivationDescriptor(descriptor_); }

}  // namespace gpuprof::workloads
