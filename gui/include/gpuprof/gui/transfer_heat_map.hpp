#pragma once

// Device-to-device traffic (PtoP and DtoD) as a source × destination grid of
// (rank, device) pairs, shaded by bytes moved, with the achieved bandwidth in
// each cell. Each cell is one rank's matrix cell as analysed, the same figures
// as `gpuprof report`'s transfer table: GPU 0 of rank 0 and GPU 0 of rank 1
// are different GPUs and never share a cell.

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
  void set_session(const Session* session);
  std::size_t device_count() const { return devices_.size(); }
  // (rank, device) of row/column `index`.
  using RankDevice = std::pair<std::int32_t, std::int32_t>;
  const std::vector<RankDevice>& devices() const { return devices_; }
  // The totals of one cell; zeros where nothing was copied.
  analysis::TransferTotals cell(const RankDevice& src, const RankDevice& dst) const;

  QSize sizeHint() const override { return {320, 260}; }

 protected:
  void paintEvent(QPaintEvent* event) override;

 private:
  std::vector<RankDevice> devices_;
  std::map<std::pair<RankDevice, RankDevice>, analysis::TransferTotals> cells_;
};

}  // namespace gpuprof::gui
