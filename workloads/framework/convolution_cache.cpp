#include "convolution_cache.hpp"

namespace gpuprof::workloads {

ConvolutionCache& convolution_cache() {
  static ConvolutionCache cache;
  return cache;
}

}  // namespace gpuprof::workloads
