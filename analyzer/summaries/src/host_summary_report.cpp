#include "gpuprof/summaries/host_summary_report.hpp"

#include "gpuprof/summaries/host_summaries.hpp"

namespace gpuprof::summaries {

HostSummaries summarize_host(const trace::TraceModel& model, const analysis::CorrelationIndex& correlations) {
  return {range_summary(model), api_summary(model), launch_latency_by_kernel(model, correlations),
          launch_queues(model, correlations)};
}

}  // namespace gpuprof::summaries
