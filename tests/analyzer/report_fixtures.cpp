#include "report_fixtures.hpp"

#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "model_builder.hpp"

namespace gpuprof::testing {

// Rank 0's memory (rank 1 records none): device 0 frees memory allocated before the trace began (a stated
// baseline) and sums its events; device 1 carries recorded totals. Weights stay, each step's activations go.
void add_golden_memory(ModelBuilder& builder) {
  using trace::MemoryOperation;
  builder.memory_event(0, 10, MemoryOperation::free, 512 << 10);
  std::int64_t recorded = 8 << 20;
  for (int device = 0; device < 2; ++device) {
    const auto total = [&](std::int64_t change) { return device == 1 ? (recorded += change) : trace::kUnknown; };
    builder.memory_event(device, 50, MemoryOperation::alloc, 4 << 20, total(4 << 20));
    for (int step = 0; step < 3; ++step) {
      const std::int64_t base = step * 10'000;
      builder.memory_event(device, base + 1'000, MemoryOperation::alloc, (1 + step) << 20, total((1 + step) << 20));
      builder.memory_event(device, base + 6'500, MemoryOperation::free, (1 + step) << 20, total(-((1 + step) << 20)));
    }
  }
}

// Two steps on two GPUs with communication (collective metadata included), peer copies, a pageable upload,
// and kernel names an attacker could have put into a trace.
trace::TraceModel golden_model(int rank) {
  using trace::CopyKind;
  ModelBuilder builder;
  builder.meta("rank", std::to_string(rank));
  const char* evil = "<script>alert(\"x\")</script>";
  for (int device = 0; device < 2; ++device) {
    for (int step = 0; step < 3; ++step) {
      const std::int64_t base = step * 10'000;
      const std::int64_t correlation = device * 100 + step * 10;
      const std::int64_t thread = 1000 + device;
      if (device == 0) builder.range(thread, base, base + 9'000, "step " + std::to_string(step));
      else builder.range(thread, base, base + 9'000, "step " + std::to_string(step));
      builder.api_call(thread, base + 100, base + 110, correlation + 1);
      builder.kernel(device, 7, base + 1'000, base + 4'000, "gemm_kernel", correlation + 1);
      builder.api_call(thread, base + 200, base + 210, correlation + 2);
      builder.kernel(device, 7, base + 4'000, base + 5'000 + device * 500, evil, correlation + 2);
      builder.api_call(thread, base + 300, base + 310, correlation + 3);
      builder.kernel(device, 21, base + 4'500, base + 6'000, "ncclDevKernel_AllReduce_Sum", correlation + 3);
      // 3000 (device 0) or 6000 bytes in 1.5 us over 4 ranks: algbw 2 or 4 GB/s, busbw 1.5 times that.
      builder.collective(device, correlation + 3, "allreduce", 3000 * (device + 1), 3000 * (device + 1), 4);
      builder.api_call(thread, base + 400, base + 410, correlation + 4);
      builder.memcpy(device, 25, base + 5'500, base + 6'500, CopyKind::peer_to_peer, 1 << 20, device, 1 - device,
                     trace::MemoryKind::device, correlation + 4);
      builder.api_call(thread, base + 500, base + 510, correlation + 5);
      builder.kernel(device, 7, base + 6'500, base + 7'000, "=HYPERLINK(\"http://x\"),a|b", correlation + 5);
      builder.range(thread, base + 7'200, base + 9'800, "data");
    }
  }
  if (rank == 0) add_golden_memory(builder);
  builder.api_call(1000, 20'050, 20'900, 999, "cudaMemcpy");
  builder.memcpy(0, 7, 20'900, 21'000, CopyKind::host_to_device, 4096, trace::kUnknown32, 0, trace::MemoryKind::pageable, 999);
  // A mangled name from an older file, launched outside every step: it runs in step 1's batch gap.
  builder.kernel(0, 9, 20'700, 20'800, "_Z10dgemv_kernILi128EEviiPKdS1_Pd");
  auto model = builder.build();
  model.stats.push_back({"invalid_buffers", 2, trace::Severity::warning, std::string("buffer without records")});
  model.path = "rank" + std::to_string(rank) + ".sqlite";
  return model;
}

report::ReportInput golden_input() {
  report::ReportInput input;
  // Idle intervals kept, as `report --format json` and `--gaps all` keep them, so every format shows them.
  analysis::AnalysisOptions options;
  options.keep_idle_intervals = true;
  for (int rank = 0; rank < 2; ++rank) input.ranks.push_back(analysis::analyze_rank(golden_model(rank), options));
  return input;
}

report::ReportInput golden_job_input() {
  std::vector<job::RankSummary> ranks;
  for (int rank = 0; rank < 2; ++rank) ranks.push_back(job::summarize_rank(golden_model(rank), {}, rank));
  return report::report_input(job::assemble_job(std::move(ranks)));
}

}  // namespace gpuprof::testing
