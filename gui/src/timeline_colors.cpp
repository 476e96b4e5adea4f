#include "gpuprof/gui/timeline_colors.hpp"

#include "gpuprof/report/part_colors.hpp"

namespace gpuprof::gui::colors {

QColor kernel(analysis::KernelCategory category) {
  return category == analysis::KernelCategory::communication ? QColor(232, 140, 30) : QColor(70, 130, 180);
}

QColor copy(trace::CopyKind kind) {
  switch (kind) {
    case trace::CopyKind::host_to_device: return {46, 160, 67};
    case trace::CopyKind::device_to_host: return {148, 103, 189};
    case trace::CopyKind::device_to_device: return {23, 170, 190};
    case trace::CopyKind::host_to_host: return {140, 86, 75};
    case trace::CopyKind::peer_to_peer: return {214, 39, 40};
    case trace::CopyKind::unknown: break;
  }
  return {150, 150, 150};
}

QColor memset() { return {127, 127, 127}; }
QColor api_call() { return {188, 189, 34}; }
QColor range() { return {247, 182, 210}; }
QColor merged(const QColor& color) { return color.darker(130); }

// The step-period parts in the HTML report's colours (one set for both).
QColor computation() { return QColor(report::colors::kComputation); }
QColor exposed_comm() { return QColor(report::colors::kExposedComm); }
QColor exposed_memcpy() { return QColor(report::colors::kExposedMemcpy); }
QColor idle() { return QColor(report::colors::kIdleInSteps); }
QColor batch_gaps() { return QColor(report::colors::kBatchGaps); }

}  // namespace gpuprof::gui::colors
