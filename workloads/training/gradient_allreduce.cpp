#include "gradient_allreduce.hpp"

#include <algorithm>

#include "cuda_check.hpp"

namespace gpuprof::workloads {

GradientAllReduce::GradientAllReduce(std::vector<Member> members, std::size_t bucket_floats)
    : members_(std::move(members)), bucket_floats_(std::max<std::size_t>(bucket_floats, 1)) {
  std::vector<int> devices;
  for (const Member& member : members_) devices.push_back(member.context->device());
  communicators_.resize(members_.size());
  GPUPROF_CHECK(ncclCommInitAll(communicators_.data(), static_cast<int>(devices.size()), devices.data()));
  for (const Member& member : members_) {
    member.context->make_current();
    cudaEvent_t ready = nullptr;
    cudaEvent_t done = nullptr;
    GPUPROF_CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    GPUPROF_CHECK(cudaEventCreateWithFlags(&done, cudaEventDisableTiming));
    gradients_ready_.push_back(ready);
    reduced_.push_back(done);
  }
}

GradientAllReduce::~GradientAllReduce() {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    cudaSetDevice(members_[i].context->device());
    if (i < gradients_ready_.size()) cudaEventDestroy(gradients_ready_[i]);
    if (i < reduced_.size()) cudaEventDestroy(reduced_[i]);
    if (communicators_[i] != nullptr) ncclCommDestroy(communicators_[i]);
  }
}

void GradientAllReduce::start(std::size_t offset, std::size_t count) {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const DeviceContext& context = *members_[i].context;
    context.make_current();
    GPUPROF_CHECK(cudaEventRecord(gradients_ready_[i], context.compute_stream()));
    GPUPROF_CHECK(cudaStreamWaitEvent(context.communication_stream(), gradients_ready_[i], 0));
  }
  for (std::size_t first = offset; first < offset + count; first += bucket_floats_) {
    const std::size_t size = std::min(bucket_floats_, offset + count - first);
    GPUPROF_CHECK(ncclGroupStart());
    for (std::size_t i = 0; i < members_.size(); ++i) {
      float* bucket = members_[i].gradients + first;
      GPUPROF_CHECK(ncclAllReduce(bucket, bucket, size, ncclFloat, ncclSum, communicators_[i],
                                  members_[i].context->communication_stream()));
    }
    GPUPROF_CHECK(ncclGroupEnd());
  }
}

void GradientAllReduce::finish() {
  for (std::size_t i = 0; i < members_.size(); ++i) {
    const DeviceContext& context = *members_[i].context;
    context.make_current();
    GPUPROF_CHECK(cudaEventRecord(reduced_[i], context.communication_stream()));
    GPUPROF_CHECK(cudaStreamWaitEvent(context.compute_stream(), reduced_[i], 0));
  }
}

}  // namespace gpuprof::workloads
