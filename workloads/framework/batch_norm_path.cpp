#include "batch_norm_path.hpp"

#include <fmt/format.h>

namespace gpuprof::workloads {

BatchNormPath choose_batch_norm_path(const BatchNormRequest& request) {
  if (request.implementation == BatchNormImplementation::legacy) return {};
  BatchNormPath path{true, request.channels_last ? CUDNN_BATCHNORM_SPATIAL_PERSISTENT : CUDNN_BATCHNORM_SPATIAL,
                     CUDNN_BATCHNORM_OPS_BN};
  if (request.channels_last && request.element == ElementType::bf16) {
    if (request.epilogue == BatchNormEpilogue::relu) path.ops = CUDNN_BATCHNORM_OPS_BN_ACTIVATION;
    if (request.epilogue == BatchNormEpilogue::add_relu) path.ops = CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
  }
  return path;
}

std::optional<BatchNormPath> fallback_after(const BatchNormPath& refused) {
  if (refused.ops != CUDNN_BATCHNORM_OPS_BN) return BatchNormPath{refused.extended, refused.mode, CUDNN_BATCHNORM_OPS_BN};
  if (refused.extended) return BatchNormPath{};
  return std::nullopt;
}

BatchNormEpilogue epilogue_left(const BatchNormPath& path, BatchNormEpilogue epilogue) {
  if (path.ops == CUDNN_BATCHNORM_OPS_BN_ACTIVATION && epilogue == BatchNormEpilogue::relu) {
    return BatchNormEpilogue::none;
  }
  if (path.ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION && epilogue == BatchNormEpilogue::add_relu) {
    return BatchNormEpilogue::none;
  }
  return epilogue;
}

std::string describe(const BatchNormPath& path) {
  if (!path.extended) return "legacy calls, spatial mode";
  const char* mode = path.mode == CUDNN_BATCHNORM_SPATIAL_PERSISTENT ? "persistent" : "spatial";
  const char* ops = path.ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION ? ", add and ReLU fused"
                    : path.ops == CUDNN_BATCHNORM_OPS_BN_ACTIVATION   ? ", ReLU fused"
                                                                      : "";
  return fmt::format("Ex calls, {} mode{}", mode, ops);
}

}  // namespace gpuprof::workloads
