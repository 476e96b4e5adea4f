#pragma once

#include <string>
#include <string_view>

#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::predict {

enum class PredictFormat { text, json, csv, html };
// Throws TraceError::bad_input for an unknown name.
PredictFormat predict_format_from_string(std::string_view name);

// text: the verdicts, a table per GPU count with the band and the terms, the notes and the host warning;
// json: `gpuprof.predict/1`; csv: one row per (GPU count, term); html: the text's content as a
// self-contained page with the report's style and sortable tables.
std::string render_prediction(PredictFormat format, const Prediction& prediction);

}  // namespace gpuprof::predict
