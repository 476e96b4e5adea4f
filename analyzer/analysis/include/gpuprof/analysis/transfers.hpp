#pragma once

// What copies cost (DESIGN.md, "Transfer cost"): per copy kind and per
// (source, destination) pair, how much time was not hidden behind computation
// on the devices involved, and two patterns worth a warning: pageable
// host-to-device copies and GPU-to-GPU traffic staged through the host.

#include <cstdint>
#include <utility>
#include <vector>

#include "gpuprof/analysis/device_activity.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

// The host side of a copy (and an unknown device) is kHost.
inline constexpr std::int32_t kHost = trace::kUnknown32;

// The (source, destination) of copy `row`, kHost for the host side; a device side the producer left
// unknown is the row's own device.
std::pair<std::int32_t, std::int32_t> copy_endpoints(const trace::MemcpyTable& table, std::size_t row);

struct TransferTotals {
  std::int64_t count = 0, bytes = 0, total_ns = 0, exposed_ns = 0;
  double gigabytes_per_second() const;
};

struct TransferPair {
  trace::CopyKind kind = trace::CopyKind::unknown;
  std::int32_t src_device = kHost, dst_device = kHost;
  TransferTotals totals;
};

struct TransferKind {
  trace::CopyKind kind = trace::CopyKind::unknown;
  TransferTotals totals;
};

// Device-to-device traffic (PtoP and DtoD) as a matrix: cell [src][dst].
struct TransferMatrix {
  std::vector<std::int32_t> devices;
  std::vector<std::vector<TransferTotals>> cells;
};

struct MatrixEntry {
  std::int32_t src_device = 0, dst_device = 0;
  TransferTotals totals;
};
// The cells of `matrix` with at least one copy, by (source, destination); safe on a ragged matrix.
std::vector<MatrixEntry> matrix_entries(const TransferMatrix& matrix);

struct TransferReport {
  std::vector<TransferKind> kinds;  // by kind code, only kinds present
  std::vector<TransferPair> pairs;  // sorted by (kind, src, dst)
  TransferMatrix matrix;
  TransferTotals pageable_host_to_device;
  // DtoH on one device followed by an HtoD of the same size to another device.
  TransferTotals host_staged;
};

TransferReport analyze_transfers(const trace::TraceModel& model, const std::vector<DeviceActivity>& activity);

}  // namespace gpuprof::analysis
