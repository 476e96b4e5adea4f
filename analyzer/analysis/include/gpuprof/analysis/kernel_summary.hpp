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
  std::string name;        // demangled full name (categories: the category)
  std::string short_name;  // short_kernel_name(name); rows stay apart by full name
  std::string category;
  std::string rule;        // the rule that made a kernel communication; empty otherwise
  DurationStats stats;
  double percent = 0;  // of the total time of all kernels (categories: of all GPU activity)
};

struct CommRuleRow {
  std::string name, short_name, rule;
};

struct KernelSummary {
  std::vector<KernelSummaryRow> kernels;     // by total time, longest first; ties by name
  std::vector<KernelSummaryRow> categories;  // same order rule
  std::vector<CommRuleRow> comm_rules;       // every communication kernel name (before `top`), by name
};

// `top` > 0 keeps that many kernel rows (percentages stay relative to all kernels).
KernelSummary summarize_kernels(const trace::TraceModel& model, const NameClasses& classes, std::size_t top = 0);
// Without rules (comm_rules stays empty).
KernelSummary summarize_kernels(const trace::TraceModel& model, const std::vector<KernelCategory>& name_categories,
                                std::size_t top = 0);

}  // namespace gpuprof::analysis
