#pragma once

// The kernel rows of load_kernel_launch_details as the loader's table reader
// hands them over, each put in its row of the model. The reader may start over
// from an empty table (chunks found unusable midway, then the rows read): all
// state is in here, so that KernelDetailRows{} starts over too.

#include <cstddef>
#include <cstdint>
#include <optional>

#include "gpuprof/trace/kernel_launch_details.hpp"
#include "gpuprof/trace/stream_order_placement.hpp"
#include "gpuprof/trace/trace_file.hpp"

namespace gpuprof::trace {

struct KernelDetailRow {
  std::int32_t device = 0;
  std::int64_t stream = 0, start_ns = 0, end_ns = 0;
  StringId name = 0;
  Dim3 grid, block;
};

class KernelDetailRows {
 public:
  void add(const TraceModel& model, const KernelDetailRow& row);
  // The details once every row was read: complete, or none with the reason (`left_out`: the reader's counts).
  KernelLaunchDetails finish(const TraceModel& model, const LeftOutRows& left_out) &&;

  // The table reader reserves its tables' columns: these are sized to the model when the first row comes.
  template <typename Visitor>
  void visit_columns(Visitor&&) {}

 private:
  std::optional<StreamOrderPlacement> placement_;
  KernelLaunchDetails details_;
  std::int64_t not_in_model_ = 0;
};

}  // namespace gpuprof::trace
