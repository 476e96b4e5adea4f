#include "layer_link.hpp"

#include "cuda_check.hpp"

namespace gpuprof::workloads {

LayerLink::LayerLink(Ends ends, std::size_t floats, std::vector<PlannedTransfer>* log)
    : ends_(std::move(ends)), log_(log) {
  ends_.consumer->make_current();
  consumer_gradient_ = DeviceArray<float>(floats, ends_.consumer_name + " input gradient");
  if (!crosses()) return;
  received_ = DeviceArray<float>(floats, ends_.consumer_name + " input received from another GPU");
  GPUPROF_CHECK(cudaEventCreateWithFlags(&consumed_, cudaEventDisableTiming));
  ends_.producer->make_current();
  producer_gradient_ = DeviceArray<float>(floats, ends_.producer_name + " output gradient received");
  GPUPROF_CHECK(cudaEventCreateWithFlags(&produced_, cudaEventDisableTiming));
}

LayerLink::~LayerLink() {
  if (produced_ != nullptr) {
    cudaSetDevice(ends_.producer->device());
    cudaEventDestroy(produced_);
  }
  if (consumed_ != nullptr) {
    cudaSetDevice(ends_.consumer->device());
    cudaEventDestroy(consumed_);
  }
}

const float* LayerLink::forward(const float* produced, std::size_t floats) {
  if (!crosses()) return produced;
  const DeviceContext& from = *ends_.producer;
  const DeviceContext& to = *ends_.consumer;
  from.make_current();
  GPUPROF_CHECK(cudaEventRecord(produced_, from.compute_stream()));
  to.make_current();
  GPUPROF_CHECK(cudaStreamWaitEvent(to.compute_stream(), produced_, 0));
  GPUPROF_CHECK(cudaMemcpyPeerAsync(received_.data(), to.device(), produced, from.device(), floats * sizeof(float),
                                    to.compute_stream()));
  if (log_ != nullptr) {
    log_->push_back(PlannedTransfer{TransferKind::activation, ends_.producer_name, ends_.consumer_name,
                                    from.device(), to.device(), ends_.tower_output});
  }
  return received_.data();
}

const float* LayerLink::backward(std::size_t floats) {
  if (!crosses()) return consumer_gradient_.data();
  const DeviceContext& from = *ends_.consumer;
  const DeviceContext& to = *ends_.producer;
  from.make_current();
  GPUPROF_CHECK(cudaEventRecord(consumed_, from.compute_stream()));
  to.make_current();
  GPUPROF_CHECK(cudaStreamWaitEvent(to.compute_stream(), consumed_, 0));
  GPUPROF_CHECK(cudaMemcpyPeerAsync(producer_gradient_.data(), to.device(), consumer_gradient_.data(),
                                    from.device(), floats * sizeof(float), to.compute_stream()));
  if (log_ != nullptr) {
    log_->push_back(PlannedTransfer{TransferKind::gradient, ends_.producer_name, ends_.consumer_name,
                                    from.device(), to.device(), ends_.tower_output});
  }
  return producer_gradient_.data();
}

}  // namespace gpuprof::workloads
