#pragma once

// The validation cases of issue 29 on the published figures in
// ../shared/data/scaling, each predicted from synthetic 1-GPU traces (made by
// the project's synth library with the published 1-GPU step time) through the
// same replay and edits as `gpuprof predict`. Shared by the tests (bounds) and
// the benchmark (the table in docs/predict.md).

#include <cstdint>
#include <string>
#include <vector>

namespace gpuprof::predict {

struct CaseResult {
  std::string family;  // "gru", "towers", "published"
  std::string name;
  double predicted = 0, measured = 0;  // the case's figure (seconds, ratio or throughput)
  double low = 0, high = 0;            // the band, same unit
  std::string unit;
  bool verdict_right = true;  // faster/slower as measured (gru, towers)
  std::string note;

  double error() const { return measured != 0 ? predicted / measured - 1.0 : 0.0; }
  bool in_band() const { return low <= measured && measured <= high; }
};

struct GruSummary {
  std::vector<CaseResult> rows;
  std::int64_t fitted_gradient_bytes = 0;
  double predicted_break_even = 0, measured_break_even = 0;  // batch sizes, interpolated in log(batch)
};

// `work_dir`: where the synthetic traces are written. Throws TraceError for missing files.
GruSummary run_gru_case(const std::string& scaling_dir, const std::string& work_dir);
CaseResult run_towers_case(const std::string& scaling_dir, const std::string& work_dir);
std::vector<CaseResult> run_published_cases(const std::string& scaling_dir, const std::string& work_dir);

}  // namespace gpuprof::predict
