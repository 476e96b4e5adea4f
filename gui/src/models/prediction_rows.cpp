#include "gpuprof/gui/models/prediction_rows.hpp"

#include <QObject>

#include "gpuprof/predict/prediction_writers.hpp"

namespace gpuprof::gui {
namespace {

QString q(const std::string& text) { return QString::fromStdString(text); }

}  // namespace

QStringList prediction_row_headers() {
  // "Step", not "Predicted step": every figure of the table is predicted, and the figures' columns must leave
  // the verdict room in a dock beside the timeline.
  return {QObject::tr("GPUs"),    QObject::tr("Step"),       QObject::tr("Band"),
          QObject::tr("Speedup"), QObject::tr("Efficiency"), QObject::tr("Verdict")};
}

TableRows prediction_rows(const predict::Prediction& prediction) {
  TableRows rows;
  for (const auto& row : prediction.rows) {
    const auto figures = predict::row_figures(row);
    // The band sorts by its low end; the raw values are the figures' own, so "9 ms" sorts before "10 ms".
    rows.push_back({{q(figures.gpus), row.gpus},
                    {q(figures.step), row.step_ns},
                    {q(figures.band), row.low_ns},
                    {q(figures.speedup), row.speedup},
                    {q(figures.efficiency), row.efficiency},
                    {q(row.verdict), {}}});
  }
  return rows;
}

}  // namespace gpuprof::gui
