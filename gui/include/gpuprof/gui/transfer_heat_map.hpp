#pragma once

// Device-to-device traffic (PtoP and DtoD) as a source × destination grid,
// shaded by bytes moved, with the achieved bandwidth in each cell.

#include <QWidget>

#include <map>
#include <utility>
#include <vector>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

class TransferHeatMap : public QWidget {
  Q_OBJECT

 public:
  explicit TransferHeatMap(QWidget* parent = nullptr);
  // Sums the matrices of every rank.
  void set_session(const Session* session);
  std::size_t device_count() const { return devices_.size(); }

  QSize sizeHint() const override { return {320, 260}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<std::int32_t> devices_;
  std::map<std::pair<std::int32_t, std::int32_t>, analysis::TransferTotals> cells_;
};

}  // namespace gpuprof::gui
