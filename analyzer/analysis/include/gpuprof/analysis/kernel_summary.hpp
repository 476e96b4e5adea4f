#pragma once

// nvprof / nsys-style kernel summary (DESIGN.md, "Kernel summary"), per kernel
// name and per category (computation, communication, memset, memcpy by kind).

#include <string>
#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/duration_stats.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::analysis {

struct KernelSummaryRow {
  std::string name;
  std::string category;
  DurationStats stats;
  double percent = 0;  // of the total time of all kernels (categories: of all GPU activity)
};

struct KernelSummary {
  std::vector<KernelSummaryRow> kernels;     // by total time, longest first; ties by name
  std::vector<KernelSummaryRow> categories;  // same order rule
};

// `top` > 0 keeps that many kernel rows (percentages stay relative to all kernels).
KernelSummary summarize_kernels(const trace::TraceModel& model, const std::vector<KernelCategory>& name_categories,
                                std::size_t top = 0);

}  // namespace gpuprof::analysis
