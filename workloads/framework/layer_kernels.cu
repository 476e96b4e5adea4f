#include "layer_kernels.hpp"

#include <cstdint>

#include <cuda_bf16.h>

#include "cuda_check.hpp"

namespace gpuprof::workloads {
namespace {

constexpr int block_size = 256;

int blocks_for(long long count) { return static_cast<int>((count + block_size - 1) / block_size); }

__global__ void add_bias_kernel(float* rows, const float* bias, long long count, int columns) {
  const long long index = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  if (index < count) rows[index] += bias[index % columns];
}

// One block per 32 columns: 32 row lanes each sum a strided share of the rows (reads of a
// warp are 32 neighbouring columns of one row), then the block adds its 32 partial sums per
// column in a fixed order, so results are reproducible without atomics.
constexpr int bias_columns = 32;
constexpr int bias_row_lanes = 32;

__global__ void accumulate_bias_gradient_kernel(const float* gradient, float* bias_gradient, int row_count,
                                                int columns) {
  __shared__ float partial[bias_row_lanes][bias_columns + 1];  // +1: no bank conflicts on the column reads
  const int column = blockIdx.x * bias_columns + threadIdx.x;
  float sum = 0.0F;
  if (column < columns) {
    for (int row = threadIdx.y; row < row_count; row += bias_row_lanes) {
      sum += gradient[static_cast<long long>(row) * columns + column];
    }
  }
  partial[threadIdx.y][threadIdx.x] = sum;
  __syncthreads();
  if (threadIdx.y != 0 || column >= columns) return;
  float total = 0.0F;
  for (int lane = 0; lane < bias_row_lanes; ++lane) total += partial[lane][threadIdx.x];
  bias_gradient[column] += total;
}

__device__ float widen(float value) { return value; }
__device__ float widen(__nv_bfloat16 value) { return __bfloat162float(value); }
template <typename T>
__device__ T narrow(float value);
template <>
__device__ float narrow<float>(float value) { return value; }
template <>
__device__ __nv_bfloat16 narrow<__nv_bfloat16>(float value) { return __float2bfloat16_rn(value); }

// The elementwise operations of the layers' glue, on fp32 values (bf16 is widened and rounded once).
struct AddOp {
  __device__ float operator()(float target, float source) const { return target + source; }
};
struct AddReluOp {
  __device__ float operator()(float output, float residual) const { return fmaxf(output + residual, 0.0F); }
};
struct ActivationOp {
  ActivationKind kind;
  __device__ float operator()(float x, float /*unused*/) const { return kind == ActivationKind::relu ? fmaxf(x, 0.0F) : tanhf(x); }
};
// Gradient through the activation from its output y and dL/dy.
struct ActivationGradientOp {
  ActivationKind kind;
  __device__ float operator()(float y, float gradient) const {
    const float slope = kind == ActivationKind::relu ? (y > 0.0F ? 1.0F : 0.0F) : 1.0F - y * y;
    return gradient * slope;
  }
};

// N elements moved as one 16-byte load or store.
template <typename T, int N>
struct alignas(sizeof(T) * N) Pack {
  T values[N];
};

// out[i] = op(a[i], b[i]) (b unread when null), N elements per thread per iteration with 16-byte
// accesses when N > 1, over a grid-stride loop; the last count % N elements go one each.
template <typename T, int N, typename Op>
__global__ void map_kernel(Op op, const T* a, const T* b, T* out, long long count) {
  const long long packs = count / N;
  const long long stride = static_cast<long long>(gridDim.x) * blockDim.x;
  const long long first = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
  for (long long p = first; p < packs; p += stride) {
    const Pack<T, N> x = reinterpret_cast<const Pack<T, N>*>(a)[p];
    Pack<T, N> y{};
    if (b != nullptr) y = reinterpret_cast<const Pack<T, N>*>(b)[p];
    Pack<T, N> result;
#pragma unroll
    for (int i = 0; i < N; ++i) result.values[i] = narrow<T>(op(widen(x.values[i]), widen(y.values[i])));
    reinterpret_cast<Pack<T, N>*>(out)[p] = result;
  }
  for (long long i = packs * N + first; i < count; i += stride) {
    out[i] = narrow<T>(op(widen(a[i]), b != nullptr ? widen(b[i]) : 0.0F));
  }
}

bool aligned16(const void* pointer) { return reinterpret_cast<std::uintptr_t>(pointer) % 16 == 0; }

// Enough blocks to fill a large GPU several times over; the grid-stride loop does the rest.
int map_blocks(long long work) {
  constexpr long long most = 4096;
  const long long blocks = (work + block_size - 1) / block_size;
  return static_cast<int>(blocks < 1 ? 1 : (blocks > most ? most : blocks));
}

template <typename T, typename Op>
void map(Op op, const void* a, const void* b, void* out, long long count, cudaStream_t stream, const char* name) {
  if (count == 0) return;
  constexpr int pack = static_cast<int>(16 / sizeof(T));
  const auto* x = static_cast<const T*>(a);
  const auto* y = static_cast<const T*>(b);
  auto* z = static_cast<T*>(out);
  if (aligned16(a) && (b == nullptr || aligned16(b)) && aligned16(out)) {
    map_kernel<T, pack><<<map_blocks(count / pack + 1), block_size, 0, stream>>>(op, x, y, z, count);
  } else {
    map_kernel<T, 1><<<map_blocks(count), block_size, 0, stream>>>(op, x, y, z, count);
  }
  check_last_launch(name);
}

template <typename Op>
void map_typed(ElementType type, Op op, const void* a, const void* b, void* out, long long count,
               cudaStream_t stream, const char* name) {
  if (type == ElementType::bf16) {
    map<__nv_bfloat16>(op, a, b, out, count, stream, name);
  } else {
    map<float>(op, a, b, out, count, stream, name);
  }
}

}  // namespace

void launch_add_bias(float* rows, const float* bias, int row_count, int columns, cudaStream_t stream) {
  const long long count = static_cast<long long>(row_count) * columns;
  if (count == 0) return;
  add_bias_kernel<<<blocks_for(count), block_size, 0, stream>>>(rows, bias, count, columns);
  check_last_launch("add_bias_kernel");
}

void launch_accumulate_bias_gradient(const float* gradient, float* bias_gradient, int row_count,
                                     int columns, cudaStream_t stream) {
  if (columns <= 0 || row_count < 0) return;
  const int blocks = (columns + bias_columns - 1) / bias_columns;
  accumulate_bias_gradient_kernel<<<blocks, dim3(bias_columns, bias_row_lanes), 0, stream>>>(
      gradient, bias_gradient, row_count, columns);
  check_last_launch("accumulate_bias_gradient_kernel");
}

void launch_add_into(float* target, const float* source, long long count, cudaStream_t stream) {
  launch_add_into(ElementType::fp32, target, source, count, stream);
}

void launch_activation_forward(ActivationKind kind, const float* input, float* output, int count,
                               cudaStream_t stream) {
  launch_activation_forward(ElementType::fp32, kind, input, output, count, stream);
}

void launch_activation_backward(ActivationKind kind, const float* output, const float* output_gradient,
                                float* input_gradient, int count, cudaStream_t stream) {
  launch_activation_backward(ElementType::fp32, kind, output, output_gradient, input_gradient, count, stream);
}

void launch_add_into(ElementType type, void* target, const void* source, long long count, cudaStream_t stream) {
  map_typed(type, AddOp{}, target, source, target, count, stream, "add_into_kernel");
}

void launch_add_relu(ElementType type, void* output, const void* residual, long long count, cudaStream_t stream) {
  map_typed(type, AddReluOp{}, output, residual, output, count, stream, "add_relu_kernel");
}

void launch_activation_forward(ElementType type, ActivationKind kind, const void* input, void* output,
                               long long count, cudaStream_t stream) {
  map_typed(type, ActivationOp{kind}, input, nullptr, output, count, stream, "activation_forward_kernel");
}

void launch_activation_backward(ElementType type, ActivationKind kind, const void* output,
                                const void* output_gradient, void* input_gradient, long long count,
                                cudaStream_t stream) {
  map_typed(type, ActivationGradientOp{kind}, output, output_gradient, input_gradient, count, stream,
            "activation_backward_kernel");
}

}  // namespace gpuprof::workloads
