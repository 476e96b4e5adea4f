// Launch-bound microbenchmark for the collector's overhead: launches empty
// kernels for a fixed time and prints kernels per second, so the same run with
// and without `gpuprof record` shows what recording each launch costs.
//   gpuprof_launch_benchmark [seconds=10] [kernels per synchronize=10000]
#include <cuda_runtime.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>

namespace {

__global__ void empty_kernel() {}

bool check(cudaError_t status, const char* call) {
  if (status == cudaSuccess) return true;
  std::fprintf(stderr, "gpuprof_launch_benchmark: %s failed: %s\n", call, cudaGetErrorString(status));
  return false;
}

}  // namespace

int main(int argc, char** argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 10.0;
  const long batch = argc > 2 ? std::atol(argv[2]) : 10000;
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::fprintf(stderr, "gpuprof_launch_benchmark: no usable CUDA GPU on this machine\n");
    return 2;
  }
  cudaStream_t stream = nullptr;
  if (!check(cudaStreamCreate(&stream), "cudaStreamCreate")) return 1;
  empty_kernel<<<1, 1, 0, stream>>>();
  if (!check(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) return 1;
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  long launched = 0;
  double elapsed = 0;
  while (elapsed < seconds) {
    for (long i = 0; i < batch; ++i) empty_kernel<<<1, 1, 0, stream>>>();
    if (!check(cudaStreamSynchronize(stream), "cudaStreamSynchronize")) return 1;
    launched += batch;
    elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  }
  std::printf("%ld kernels in %.2f s: %.0f kernels/s\n", launched, elapsed, static_cast<double>(launched) / elapsed);
  return 0;
}
