#include "gpuprof/analysis/analysis_options.hpp"

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/step_pattern.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::analysis {

void check_analysis_options(const AnalysisOptions& options) {
  if (options.warmup_steps < 0) throw TraceError::bad_input("", "--warmup-steps must not be negative");
  // Compiling them is the check; the analyses compile their own.
  const StepPattern steps(options.step_pattern);
  const KernelClassifier classifier(options.comm_patterns);
}

}  // namespace gpuprof::analysis
