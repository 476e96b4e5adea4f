#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/predict/prediction.hpp"
#include "gpuprof/report/report_writers.hpp"

namespace gpuprof::predict {

// text: the verdicts, a table per GPU count with the band and the terms, the notes and the host warning;
// json: `gpuprof.predict/1`; csv: one row per (GPU count, term); html: the text's content as a
// self-contained page with the report's style and sortable tables; md: the same as Markdown (pipe tables).
// The format is one every gpuprof document has (report::format_from_string names them).
std::string render_prediction(report::Format format, const Prediction& prediction);

// The text output's pieces, for other views of the same prediction (the app's panel) to say it in the same words:
// the per-GPU-batch trace (when there is one), the strategy, link, gradient size and measured 1-GPU step, one
// line each;
std::vector<std::string> prediction_context(const Prediction& prediction);
// "2 GPUs: step 10.2 ms (band 9.80 ms to 12.1 ms), speedup 1.82x, efficiency 91 %";
std::string row_headline(const GpuCountPrediction& row);
// the headline's figures one by one, in its words (a table's columns): "2", "10.2 ms", "9.80 ms to 12.1 ms",
// "1.82x", "91 %";
struct RowFigures {
  std::string gpus, step, band, speedup, efficiency;
};
RowFigures row_figures(const GpuCountPrediction& row);
// the shared-host risk, with the measured host time (a warning, outside the band).
std::string host_warning(const Prediction& prediction);

}  // namespace gpuprof::predict
