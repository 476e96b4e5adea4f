// Plays a CUDA training program on a machine without a GPU, for the collector's
// end-to-end tests. It loads the library named by CUDA_INJECTION64_PATH as the
// driver does in cuInit, then replays a data-parallel run: one thread per
// device, each step an NVTX range with an input copy, kernels, a graph launch,
// an all-reduce kernel, a peer copy, a memset, event queries and a stream
// synchronize, every GPU record with the API call that launched it. The stand-in
// libcupti turns them into activity buffers. Options script the hard cases:
// signals at each stage, drops, a second CUPTI client, late deliveries, fork.
// The counts it produces are fixed, so tests can check every row (see
// standin_expectations.hpp).

#include <cupti.h>
#include <cupti_driver_cbid.h>
#include <cupti_runtime_cbid.h>
#include <dlfcn.h>
#include <nvtx3/nvToolsExt.h>
#include <signal.h>
#include <sys/resource.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "cuda.h"
#include "standin_control.h"
#include "standin_expectations.hpp"

namespace {

using namespace gpuprof::standin;

struct Options {
  int devices = 2;
  int steps = 3;
  int exit_code = 0;
  std::size_t extra_bytes = 0;     // records as a newer CUPTI with larger structs emits them
  std::size_t drop_at_end = 0;     // drops no buffer completion reports
  int take_over_after_step = -1;   // a second CUPTI client registers after this step
  std::uint32_t late_delivery_ms = 0;
  std::string signal_stage;        // start, steady or exit
  int signal_number = SIGTERM;
  int signal_repeats = 1;
  bool fork_child = false;
  bool child_gets_signal = false;
  int run_ms = 0;                  // keep stepping this long (for external signals)
  long long bench_launches = 0;    // benchmark: this many launches (API + kernel record) per device thread
  long long bench_rate = 0;        // benchmark: launches per second per thread (0: as fast as possible)
  bool destroy_context = false;    // a context is destroyed after the steps (a flush point)
};

Options options;
std::atomic<std::uint32_t> next_correlation{1};

void emit_sized(const void* record, std::size_t size) {
  if (options.extra_bytes == 0) {
    standin_emit(record, size);
    return;
  }
  std::vector<unsigned char> bigger(size + options.extra_bytes, 0xAB);
  std::memcpy(bigger.data(), record, size);
  standin_emit(bigger.data(), bigger.size());
}

template <typename Record>
Record gpu_record(CUpti_ActivityKind kind, int device, std::uint32_t correlation, std::uint64_t start,
                  std::uint64_t duration) {
  Record record{};
  record.kind = kind;
  record.deviceId = static_cast<std::uint32_t>(device);
  record.contextId = static_cast<std::uint32_t>(device + 1);
  record.streamId = 7;
  record.correlationId = correlation;
  record.start = start;
  record.end = start + duration;
  return record;
}

// One API call and, when it launched GPU work, its correlation id for that record.
std::uint32_t api(std::uint32_t callback_id) {
  const auto correlation = next_correlation++;
  const auto start = standin_timestamp();
  standin_api_call(CUPTI_CB_DOMAIN_RUNTIME_API, callback_id, start, start + 2'000, correlation);
  return correlation;
}

// A driver API call, as cuDNN and cuBLAS make them.
std::uint32_t driver_api(std::uint32_t callback_id) {
  const auto correlation = next_correlation++;
  const auto start = standin_timestamp();
  standin_api_call(CUPTI_CB_DOMAIN_DRIVER_API, callback_id, start, start + 2'000, correlation);
  return correlation;
}

// Graph nodes have no call of their own: they carry the graph launch's correlation id.
void kernel_record(int device, const char* name, std::uint32_t correlation, std::uint32_t graph_id = 0) {
  auto record = gpu_record<CUpti_ActivityKernel10>(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL, device, correlation,
                                                  standin_timestamp() + 5'000, 40'000);
  record.name = name;
  record.gridX = record.gridY = record.gridZ = 1;
  record.blockX = 128, record.blockY = record.blockZ = 1;
  record.graphId = graph_id;
  record.graphNodeId = graph_id != 0 ? 100 + graph_id : 0;
  emit_sized(&record, sizeof record);
}

void kernel(int device, const char* name, std::uint32_t callback_id, std::uint32_t graph_id = 0,
            std::uint32_t graph_correlation = 0) {
  kernel_record(device, name, graph_id != 0 ? graph_correlation : api(callback_id), graph_id);
}

void copy(int device, std::uint8_t kind, std::uint8_t source, std::uint8_t destination, std::uint64_t bytes) {
  const auto correlation = api(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyAsync_v3020);
  auto record = gpu_record<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY, device, correlation,
                                                 standin_timestamp() + 3'000, 20'000);
  record.copyKind = kind, record.srcKind = source, record.dstKind = destination, record.bytes = bytes;
  emit_sized(&record, sizeof record);
}

// Reported twice, as a peer record and as a plain one of kind PTOP: only the peer one has both devices.
void peer_copy(int device, int peer) {
  const auto correlation = api(CUPTI_RUNTIME_TRACE_CBID_cudaMemcpyPeerAsync_v4000);
  const auto start = standin_timestamp() + 3'000;
  auto record = gpu_record<CUpti_ActivityMemcpyPtoP4>(CUPTI_ACTIVITY_KIND_MEMCPY2, device, correlation, start, 30'000);
  record.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  record.srcKind = record.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  record.srcDeviceId = static_cast<std::uint32_t>(device), record.dstDeviceId = static_cast<std::uint32_t>(peer);
  record.srcContextId = static_cast<std::uint32_t>(device + 1);
  record.dstContextId = static_cast<std::uint32_t>(peer + 1);
  record.bytes = kPeerCopyBytes;
  emit_sized(&record, sizeof record);
  auto plain = gpu_record<CUpti_ActivityMemcpy6>(CUPTI_ACTIVITY_KIND_MEMCPY, device, correlation, start, 30'000);
  plain.copyKind = CUPTI_ACTIVITY_MEMCPY_KIND_PTOP;
  plain.srcKind = plain.dstKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  plain.bytes = kPeerCopyBytes;
  emit_sized(&plain, sizeof plain);
}

void memset_on(int device) {
  const auto correlation = api(CUPTI_RUNTIME_TRACE_CBID_cudaMemsetAsync_v3020);
  auto record = gpu_record<CUpti_ActivityMemset4>(CUPTI_ACTIVITY_KIND_MEMSET, device, correlation,
                                                 standin_timestamp() + 2'000, 5'000);
  record.bytes = 4096;
  emit_sized(&record, sizeof record);
}

// An allocation or free as CUPTI's memory activity reports it, stamped when its call ran.
void memory(int device, std::uint32_t callback_id, CUpti_ActivityMemoryOperationType operation,
            std::uint64_t address, std::uint64_t bytes) {
  const auto correlation = api(callback_id);
  CUpti_ActivityMemory4 record{};
  record.kind = CUPTI_ACTIVITY_KIND_MEMORY2;
  record.memoryOperationType = operation;
  record.memoryKind = CUPTI_ACTIVITY_MEMORY_KIND_DEVICE;
  record.correlationId = correlation;
  record.address = address;
  record.bytes = bytes;
  record.timestamp = standin_timestamp();
  record.deviceId = static_cast<std::uint32_t>(device);
  record.contextId = static_cast<std::uint32_t>(device + 1);
  record.streamId = callback_id == CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020 ? CUPTI_INVALID_STREAM_ID : 7;
  emit_sized(&record, sizeof record);
}

std::uint64_t device_address(int device, std::uint64_t offset) {
  return 0x7f0000000000ull + (static_cast<std::uint64_t>(device) << 36) + offset;
}

void synchronization(int device, std::uint32_t callback_id, CUpti_ActivitySynchronizationType type,
                     std::uint32_t return_value) {
  const auto correlation = api(callback_id);
  CUpti_ActivitySynchronization2 record{};
  record.kind = CUPTI_ACTIVITY_KIND_SYNCHRONIZATION;
  record.type = type;
  record.start = standin_timestamp();
  record.end = record.start + 50'000;
  record.correlationId = correlation;
  record.contextId = static_cast<std::uint32_t>(device + 1);
  record.streamId = 7;
  record.cudaEventId = type == CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE ? CUPTI_SYNCHRONIZATION_INVALID_VALUE : 3;
  record.returnValue = return_value;
  emit_sized(&record, sizeof record);
}

void step(int device, int number, nvtxDomainHandle_t domain) {
  const std::string name = "step " + std::to_string(number);
  nvtxRangePushA(name.c_str());
  const auto workspace = device_address(device, kWeightsBytes);
  memory(device, CUPTI_RUNTIME_TRACE_CBID_cudaMallocAsync_v11020, CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION,
         workspace, kWorkspaceBytes);
  copy(device, CUPTI_ACTIVITY_MEMCPY_KIND_HTOD, CUPTI_ACTIVITY_MEMORY_KIND_PINNED, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
       kInputBytes);
  nvtxEventAttributes_t forward{};
  forward.version = NVTX_VERSION;
  forward.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  forward.messageType = NVTX_MESSAGE_TYPE_ASCII;
  forward.message.ascii = "forward";
  nvtxDomainRangePushEx(domain, &forward);
  kernel(device, "__cudaLaunchKernel_kernel", CUPTI_RUNTIME_TRACE_CBID___cudaLaunchKernel_v13000);
  for (int i = 1; i < kPlainKernelsPerStep; ++i) {
    kernel(device, "gemm_kernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    api(CUPTI_RUNTIME_TRACE_CBID_cudaGetLastError_v3020);  // excluded by default, as kineto does
    api(CUPTI_RUNTIME_TRACE_CBID_cudaGetDevice_v3020);
  }
  // A library's kernel, launched through the driver after a driver call that launches nothing.
  driver_api(CUPTI_DRIVER_TRACE_CBID_cuCtxGetCurrent);
  kernel_record(device, "library_conv_kernel", driver_api(CUPTI_DRIVER_TRACE_CBID_cuLaunchKernel));
  nvtxDomainRangePop(domain);
  const auto graph = api(CUPTI_RUNTIME_TRACE_CBID_cudaGraphLaunch_v10000);
  for (int node = 1; node <= kGraphKernelsPerStep; ++node) kernel(device, "graph_node_kernel", 0, 1, graph);
  kernel(device, "ncclDevKernel_AllReduce_Sum_f32_RING_LL", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  copy(device, CUPTI_ACTIVITY_MEMCPY_KIND_DTOD, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE,
       kDeviceCopyBytes);
  if (options.devices > 1) peer_copy(device, (device + 1) % options.devices);
  memset_on(device);
  copy(device, CUPTI_ACTIVITY_MEMCPY_KIND_DTOH, CUPTI_ACTIVITY_MEMORY_KIND_DEVICE, CUPTI_ACTIVITY_MEMORY_KIND_PAGEABLE,
       kOutputBytes);
  // A query that found the work unfinished, one that found it done, then a real wait.
  synchronization(device, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
                  CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, CUDA_ERROR_NOT_READY);
  synchronization(device, CUPTI_RUNTIME_TRACE_CBID_cudaEventQuery_v3020,
                  CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_EVENT_SYNCHRONIZE, CUDA_SUCCESS);
  synchronization(device, CUPTI_RUNTIME_TRACE_CBID_cudaStreamSynchronize_v3020,
                  CUPTI_ACTIVITY_SYNCHRONIZATION_TYPE_STREAM_SYNCHRONIZE, CUDA_SUCCESS);
  memory(device, CUPTI_RUNTIME_TRACE_CBID_cudaFreeAsync_v11020, CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_RELEASE,
         workspace, kWorkspaceBytes);
  nvtxRangePop();
}

constexpr int kLateDeliveryKernels = 3000;

void send_signals() {
  for (int i = 0; i < options.signal_repeats; ++i) ::kill(::getpid(), options.signal_number);
}

void device_thread(int device, nvtxDomainHandle_t domain) {
  const std::string name = "device " + std::to_string(device);
  nvtxNameOsThreadA(static_cast<std::uint32_t>(::gettid()), name.c_str());
  const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(options.run_ms);
  memory(device, CUPTI_RUNTIME_TRACE_CBID_cudaMalloc_v3020, CUPTI_ACTIVITY_MEMORY_OPERATION_TYPE_ALLOCATION,
         device_address(device, 0), kWeightsBytes);
  for (int number = 0; number < options.steps || std::chrono::steady_clock::now() < until; ++number) {
    step(device, number, domain);
  }
}

void run_steps(nvtxDomainHandle_t domain) {
  std::vector<std::thread> threads;
  for (int device = 0; device < options.devices; ++device) threads.emplace_back(device_thread, device, domain);
  for (auto& thread : threads) thread.join();
}

// A child of fork inherits the injected collector but none of its threads.
void fork_a_child() {
  const pid_t child = ::fork();
  if (child == 0) {
    kernel(0, "child_kernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
    if (options.child_gets_signal) ::raise(SIGTERM);
    std::exit(0);
  }
  int status = 0;
  ::waitpid(child, &status, 0);
}

// The collector's benchmark (bench/collector_standin_benchmark.cpp reads these lines): launches
// as fast as the threads go, then how long the exit took and the peak memory.
std::chrono::steady_clock::time_point bench_main_returned;

// Paced in slices of 1,000 launches when a rate is given, as a training loop launches steadily.
void bench_launches(int device) {
  constexpr long long kSlice = 1000;
  const auto started = std::chrono::steady_clock::now();
  for (long long i = 0; i < options.bench_launches; ++i) {
    if (options.bench_rate > 0 && i % kSlice == 0) {
      std::this_thread::sleep_until(started + std::chrono::nanoseconds(i * 1'000'000'000 / options.bench_rate));
    }
    kernel(device, "bench_kernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  }
}

double thread_cpu_seconds() {
  timespec now{};
  ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

void run_benchmark() {
  const auto started = std::chrono::steady_clock::now();
  std::vector<std::thread> threads;
  std::vector<double> cpu(static_cast<std::size_t>(options.devices));
  for (int device = 0; device < options.devices; ++device) {
    threads.emplace_back([device, &cpu] {
      bench_launches(device);
      cpu[static_cast<std::size_t>(device)] = thread_cpu_seconds();
    });
  }
  for (auto& thread : threads) thread.join();
  const std::chrono::duration<double> wall = std::chrono::steady_clock::now() - started;
  double cpu_total = 0;
  for (const double seconds : cpu) cpu_total += seconds;
  std::printf("bench launches %lld records %lld launch_wall_s %.6f launch_cpu_s %.6f\n",
              options.bench_launches * options.devices, 2 * options.bench_launches * options.devices, wall.count(),
              cpu_total);
  std::fflush(stdout);
  bench_main_returned = std::chrono::steady_clock::now();
}

// Registered before the injection: runs after the collector finished the trace.
void report_exit() {
  const std::chrono::duration<double> exit = std::chrono::steady_clock::now() - bench_main_returned;
  rusage usage{};
  ::getrusage(RUSAGE_SELF, &usage);
  std::printf("bench exit_s %.6f peak_rss_kib %ld\n", exit.count(), usage.ru_maxrss);
  std::fflush(stdout);
}

bool inject() {
  const char* path = std::getenv("CUDA_INJECTION64_PATH");
  if (path == nullptr) return true;  // run without a collector: the bare program
  void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "standin_host: dlopen: %s\n", ::dlerror());
    return false;
  }
  auto initialize = reinterpret_cast<int (*)()>(::dlsym(library, "InitializeInjection"));
  return initialize != nullptr && initialize() == 1;
}

// Runs after the collector's own exit handler (registered later, run earlier)
// when registered before the injection: the late delivery then arrives after the trace is finished.
void wait_for_late_delivery() { std::this_thread::sleep_for(std::chrono::milliseconds(options.late_delivery_ms + 300)); }

std::atomic<bool> exit_signals_sent{false};

// Registered after the injection, so it runs first at exit: the signal lands
// while the collector finishes the trace (or just after).
void signal_during_exit_flush() {
  std::thread([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    send_signals();
    exit_signals_sent = true;
  }).detach();
}

// Registered before the injection, so it runs after the collector's exit handler:
// the process does not end before the signal was sent.
void wait_for_exit_signals() {
  for (int waited_ms = 0; !exit_signals_sent && waited_ms < 5000; ++waited_ms) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
}

bool parse(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string option = argv[i];
    const char* value = i + 1 < argc ? argv[i + 1] : nullptr;
    auto number = [&] { return value != nullptr ? std::atoll(argv[++i]) : 0; };
    if (option == "--devices") options.devices = static_cast<int>(number());
    else if (option == "--steps") options.steps = static_cast<int>(number());
    else if (option == "--exit") options.exit_code = static_cast<int>(number());
    else if (option == "--extra-bytes") options.extra_bytes = static_cast<std::size_t>(number());
    else if (option == "--drop-at-end") options.drop_at_end = static_cast<std::size_t>(number());
    else if (option == "--take-over-after") options.take_over_after_step = static_cast<int>(number());
    else if (option == "--late-delivery-ms") options.late_delivery_ms = static_cast<std::uint32_t>(number());
    else if (option == "--run-ms") options.run_ms = static_cast<int>(number());
    else if (option == "--bench-launches") options.bench_launches = number();
    else if (option == "--bench-rate") options.bench_rate = number();
    else if (option == "--destroy-context") options.destroy_context = true;
    else if (option == "--signal-repeats") options.signal_repeats = static_cast<int>(number());
    else if (option == "--fork") options.fork_child = true;
    else if (option == "--fork-child-gets-signal") options.fork_child = options.child_gets_signal = true;
    else if (option == "--signal" && value != nullptr) {
      const std::string spec = argv[++i];  // TERM@steady
      const auto at = spec.find('@');
      options.signal_number = spec.substr(0, at) == "INT" ? SIGINT : SIGTERM;
      options.signal_stage = at == std::string::npos ? "" : spec.substr(at + 1);
    } else {
      std::fprintf(stderr, "standin_host: unknown option %s\n", option.c_str());
      return false;
    }
  }
  return options.devices >= 1 && options.steps >= 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (!parse(argc, argv)) return 64;
  if (options.late_delivery_ms > 0) std::atexit(wait_for_late_delivery);
  if (options.signal_stage == "exit") std::atexit(wait_for_exit_signals);
  if (options.bench_launches > 0) std::atexit(report_exit);
  if (cuInit(0) != CUDA_SUCCESS || !inject()) return 65;
  if (options.bench_launches > 0) {
    run_benchmark();
    return 0;
  }
  if (options.signal_stage == "exit") std::atexit(signal_during_exit_flush);
  if (options.signal_stage == "start") send_signals();
  nvtxDomainHandle_t domain = nvtxDomainCreateA("standin");
  const int split = options.take_over_after_step >= 0 ? options.take_over_after_step + 1 : options.steps;
  const int later = options.steps - split;
  options.steps = split;
  run_steps(domain);
  if (options.signal_stage == "steady") send_signals();
  if (options.destroy_context) {
    // The records of a context about to go must be collected first: the collector flushes at this callback.
    const auto before = standin_get_counts().buffers_completed;
    standin_resource_event(CUPTI_CBID_RESOURCE_CONTEXT_DESTROY_STARTING);
    std::printf("buffers handed over at the context's destruction: %llu\n",
                static_cast<unsigned long long>(standin_get_counts().buffers_completed - before));
  }
  if (options.fork_child) fork_a_child();
  if (later > 0) {
    standin_second_client_takes_over();
    options.steps = later;
    run_steps(domain);
  }
  if (options.late_delivery_ms > 0) {
    // Enough records to fill at least one buffer, which CUPTI's thread then hands over late.
    standin_delay_next_completion(options.late_delivery_ms);
    for (int i = 0; i < kLateDeliveryKernels; ++i) kernel(0, "late_kernel", CUPTI_RUNTIME_TRACE_CBID_cudaLaunchKernel_v7000);
  }
  if (options.drop_at_end > 0) standin_add_dropped(options.drop_at_end);
  return options.exit_code;
}
