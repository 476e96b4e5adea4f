#pragma once

// The Prediction panel's table: one row per GPU count, in the words of `gpuprof predict`'s text output
// (predict::row_figures, the row's verdict), sortable by the figures' raw values.

#include <QStringList>

#include "gpuprof/gui/models/table_model.hpp"
#include "gpuprof/predict/prediction.hpp"

namespace gpuprof::gui {

// GPUs, predicted step, band, speedup, efficiency, verdict.
QStringList prediction_row_headers();
inline constexpr int kPredictionVerdictColumn = 5;
// Row i is prediction.rows[i].
TableRows prediction_rows(const predict::Prediction& prediction);

}  // namespace gpuprof::gui
