#pragma once

#include <cstddef>
#include <vector>

#include <cuda_runtime_api.h>
#include <nccl.h>

#include "device_context.hpp"

namespace gpuprof::workloads {

// Sums gradients across the GPUs of this process with NCCL, in buckets, on each
// GPU's communication stream. One host thread drives all GPUs, so every collective
// is issued for all ranks inside one ncclGroupStart/End.
class GradientAllReduce {
 public:
  struct Member {
    const DeviceContext* context = nullptr;
    float* gradients = nullptr;
  };

  GradientAllReduce(std::vector<Member> members, std::size_t bucket_floats);
  ~GradientAllReduce();
  GradientAllReduce(const GradientAllReduce&) = delete;
  GradientAllReduce& operator=(const GradientAllReduce&) = delete;

  // Starts reducing gradients[offset, offset + count) once the work already
  // enqueued on each compute stream has produced them.
  void start(std::size_t offset, std::size_t count);
  // Makes each compute stream wait for every reduction started so far.
  void finish();

 private:
  std::vector<Member> members_;
  std::size_t bucket_floats_;
  std::vector<ncclComm_t> communicators_;
  std::vector<cudaEvent_t> gradients_ready_;
  std::vector<cudaEvent_t> reduced_;
};

}  // namespace gpuprof::workloads
