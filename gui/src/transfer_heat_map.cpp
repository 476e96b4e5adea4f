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
  std::set<RankDevice> devices;
  if (session) {
    for (const auto& rank : session->ranks) {
      const auto id = rank->analysis.rank;
      for (const auto device : rank->analysis.transfers.matrix.devices) devices.insert({id, device});
      for (const auto& entry : analysis::matrix_entries(rank->analysis.transfers.matrix)) {
        cells_[{{id, entry.src_device}, {id, entry.dst_device}}] = entry.totals;
      }
    }
  }
  devices_.assign(devices.begin(), devices.end());
  update();
}

analysis::TransferTotals TransferHeatMap::cell(const RankDevice& src, const RankDevice& dst) const {
  const auto found = cells_.find({src, dst});
  return found == cells_.end() ? analysis::TransferTotals{} : found->second;
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
  const bool several_ranks = !devices_.empty() && devices_.front().first != devices_.back().first;
  const auto label = [this, several_ranks](int index) {
    const auto& [rank, device] = devices_[static_cast<std::size_t>(index)];
    return several_ranks ? tr("r%1 GPU %2").arg(rank).arg(device) : tr("GPU %1").arg(device);
  };
  for (int s = 0; s < n; ++s) {
    painter.setPen(Qt::black);
    painter.drawText(QRect(0, kMargin / 2 + s * cell, kMargin - 4, cell), Qt::AlignVCenter | Qt::AlignRight, label(s));
    painter.drawText(QRect(kMargin + s * cell, 0, cell, kMargin / 2), Qt::AlignCenter, label(s));
    for (int d = 0; d < n; ++d) {
      const auto totals = this->cell(devices_[static_cast<std::size_t>(s)], devices_[static_cast<std::size_t>(d)]);
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
