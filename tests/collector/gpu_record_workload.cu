// A small CUDA program with known GPU work, recorded by gpu_record_test under
// `gpuprof record`. It writes what it did (counts that depend on the machine)
// to the file named by argv[1], so the test knows exactly what to expect.

#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

namespace {

constexpr size_t kPageableBytes = 1 << 20;
constexpr size_t kPinnedBytes = 2 << 20;
constexpr size_t kDeviceCopyBytes = 512 << 10;
constexpr size_t kMemsetBytes = 256 << 10;
constexpr size_t kPeerBytes = 1 << 20;

void check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) {
    std::fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(status));
    std::exit(1);
  }
}

}  // namespace

extern "C" __global__ void fill_kernel(float* data, int count, float value) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) data[i] = value;
}

extern "C" __global__ void scale_kernel(float* data, int count, float factor) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) data[i] *= factor;
}

extern "C" __global__ void graph_kernel(float* data, int count) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < count) data[i] += 1.0f;
}

int main(int argc, char** argv) {
  if (argc < 2) return 2;
  const int count = static_cast<int>(kPinnedBytes / sizeof(float));
  const int blocks = (count + 255) / 256;
  cudaStream_t stream;
  check(cudaStreamCreate(&stream), "cudaStreamCreate");
  float *device = nullptr, *device_copy = nullptr, *pinned = nullptr;
  check(cudaMalloc(&device, kPinnedBytes), "cudaMalloc");
  check(cudaMalloc(&device_copy, kPinnedBytes), "cudaMalloc");
  check(cudaMallocHost(&pinned, kPinnedBytes), "cudaMallocHost");
  auto* pageable = static_cast<float*>(std::malloc(kPageableBytes));

  nvtxRangePushA("outer");
  nvtxDomainHandle_t domain = nvtxDomainCreateA("gpuprof_test");
  nvtxEventAttributes_t attributes = {};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "inner_io";
  const nvtxRangeId_t inner = nvtxDomainRangeStartEx(domain, &attributes);
  check(cudaMemcpy(device, pageable, kPageableBytes, cudaMemcpyHostToDevice), "HtoD pageable");
  check(cudaMemcpyAsync(device, pinned, kPinnedBytes, cudaMemcpyHostToDevice, stream), "HtoD pinned");
  nvtxDomainRangeEnd(domain, inner);

  for (int i = 0; i < 3; ++i) fill_kernel<<<blocks, 256, 0, stream>>>(device, count, 1.0f);
  for (int i = 0; i < 2; ++i) scale_kernel<<<blocks, 256, 0, stream>>>(device, count, 2.0f);
  check(cudaMemsetAsync(device_copy, 0, kMemsetBytes, stream), "memset");
  check(cudaMemcpyAsync(device_copy, device, kDeviceCopyBytes, cudaMemcpyDeviceToDevice, stream), "DtoD");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  check(cudaMemcpyAsync(pinned, device, kPinnedBytes, cudaMemcpyDeviceToHost, stream), "DtoH pinned");
  cudaEvent_t done;
  check(cudaEventCreate(&done), "cudaEventCreate");
  check(cudaEventRecord(done, stream), "cudaEventRecord");
  check(cudaEventSynchronize(done), "cudaEventSynchronize");

  // Two kernels captured into a graph, launched twice: four kernel records with graph node ids.
  cudaGraph_t graph;
  cudaGraphExec_t graph_exec;
  check(cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal), "capture");
  graph_kernel<<<blocks, 256, 0, stream>>>(device, count);
  graph_kernel<<<blocks, 256, 0, stream>>>(device, count);
  check(cudaStreamEndCapture(stream, &graph), "end capture");
  check(cudaGraphInstantiate(&graph_exec, graph, 0), "instantiate");
  check(cudaGraphLaunch(graph_exec, stream), "graph launch");
  check(cudaGraphLaunch(graph_exec, stream), "graph launch");
  check(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  nvtxRangePop();

  int devices = 0, peer = 0;
  check(cudaGetDeviceCount(&devices), "cudaGetDeviceCount");
  if (devices >= 2) check(cudaDeviceCanAccessPeer(&peer, 0, 1), "cudaDeviceCanAccessPeer");
  int peer_copies = 0;
  if (peer) {
    float* other = nullptr;
    check(cudaSetDevice(1), "cudaSetDevice");
    check(cudaMalloc(&other, kPeerBytes), "cudaMalloc on 1");
    check(cudaSetDevice(0), "cudaSetDevice");
    check(cudaMemcpyPeer(other, 1, device, 0, kPeerBytes), "cudaMemcpyPeer");
    peer_copies = 1;
  }
  check(cudaDeviceSynchronize(), "cudaDeviceSynchronize");

  FILE* expectations = std::fopen(argv[1], "w");
  if (expectations == nullptr) return 1;
  std::fprintf(expectations, "peer_copies=%d\n", peer_copies);
  std::fclose(expectations);
  std::free(pageable);
  return 0;
}
