#include "gpuprof/summaries/host_summary_report.hpp"

#include "gpuprof/summaries/host_summaries.hpp"
#include "gpuprof/summaries/launch_tables.hpp"

namespace gpuprof::summaries {

HostSummaries summarize_host(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations) {
  const analysis::KernelLaunches launches(model, correlations);
  return {range_summary(model), api_summary(model), launch_latency_by_kernel(model, launches),
          launch_queues(model, launches)};
}

}  // namespace gpuprof::summaries
