#pragma once

// The timeline's colours, shared with the legends of the panels.

#include <QColor>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/trace/records.hpp"

namespace gpuprof::gui::colors {

QColor kernel(analysis::KernelCategory category);
QColor copy(trace::CopyKind kind);
QColor memset();
QColor api_call();
QColor range();
// Darker variant for blocks that merge several events.
QColor merged(const QColor& color);

QColor computation();
QColor exposed_comm();
QColor exposed_memcpy();
QColor idle();
QColor batch_gaps();

}  // namespace gpuprof::gui::colors
