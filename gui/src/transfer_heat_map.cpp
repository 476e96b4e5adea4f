#include "gpuprof/gui/transfer_heat_map.hpp"

#include <QPainter>

#include <algorithm>
#include <set>

#include "gpuprof/units/units.hpp"

namespace gpuprof::gui {
namespace {
constexpr int kMargin = 60;
}

TransferHeatMap::TransferHeatMap(QWidget* parent) : QWidget(parent) { setMinimumSize(200, 160); }

void TransferHeatMap::set_session(const Session* session) {
  devices_.clear();
  cells_.clear();
  std::set<std::int32_t> devices;
  if (session) {
    for (const auto& rank : session->ranks) {
      const auto& matrix = rank->analysis.transfers.matrix;
      for (std::size_t s = 0; s < matrix.devices.size(); ++s) {
        devices.insert(matrix.devices[s]);
        for (std::size_t d = 0; d < matrix.devices.size() && s < matrix.cells.size(); ++d) {
          const auto& cell = matrix.cells[s][d];
          auto& sum = cells_[{matrix.devices[s], matrix.devices[d]}];
          sum.count += cell.count;
          sum.bytes += cell.bytes;
          sum.total_ns += cell.total_ns;
          sum.exposed_ns += cell.exposed_ns;
        }
      }
    }
  }
  devices_.assign(devices.begin(), devices.end());
  update();
}

void TransferHeatMap::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), Qt::white);
  if (devices_.empty()) {
    painter.drawText(rect(), Qt::AlignCenter, tr("No GPU-to-GPU copies"));
    return;
  }
  std::int64_t most = 1;
  for (const auto& [key, totals] : cells_) most = std::max(most, totals.bytes);
  const int n = static_cast<int>(devices_.size());
  const int cell = std::max(20, std::min((width() - kMargin) / n, (height() - kMargin) / n));
  painter.drawText(QRect(0, 0, kMargin, kMargin / 2), Qt::AlignCenter, tr("src \\ dst"));
  for (int s = 0; s < n; ++s) {
    painter.setPen(Qt::black);
    painter.drawText(QRect(0, kMargin / 2 + s * cell, kMargin - 4, cell), Qt::AlignVCenter | Qt::AlignRight,
                     tr("GPU %1").arg(devices_[static_cast<std::size_t>(s)]));
    painter.drawText(QRect(kMargin + s * cell, 0, cell, kMargin / 2), Qt::AlignCenter,
                     tr("GPU %1").arg(devices_[static_cast<std::size_t>(s)]));
    for (int d = 0; d < n; ++d) {
      const auto it = cells_.find({devices_[static_cast<std::size_t>(s)], devices_[static_cast<std::size_t>(d)]});
      const auto totals = it == cells_.end() ? analysis::TransferTotals{} : it->second;
      const double share = static_cast<double>(totals.bytes) / static_cast<double>(most);
      const QRect box(kMargin + d * cell, kMargin / 2 + s * cell, cell - 2, cell - 2);
      painter.fillRect(box, QColor::fromRgbF(1.0f, static_cast<float>(1 - 0.8 * share), static_cast<float>(1 - 0.85 * share)));
      painter.setPen(share > 0.6 ? Qt::white : Qt::black);
      if (totals.count > 0 && cell >= 50) {
        painter.drawText(box, Qt::AlignCenter,
                         QStringLiteral("%1\n%2 GB/s")
                             .arg(QString::fromStdString(units::format_bytes(totals.bytes)))
                             .arg(totals.gigabytes_per_second(), 0, 'f', 1));
      }
    }
  }
}

}  // namespace gpuprof::gui
