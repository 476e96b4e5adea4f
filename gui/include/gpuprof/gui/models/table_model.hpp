#pragma once

// A thin read-only table model: rows of cells prepared once from the
// analyzer's results. Sorting uses each cell's raw value (SortRole), so "9 ms"
// sorts before "10 ms"; filtering and sorting live in a QSortFilterProxyModel.

#include <QAbstractTableModel>
#include <QStringList>
#include <QVariant>

#include <vector>

namespace gpuprof::gui {

struct TableCell {
  QString text;
  QVariant raw;  // numbers for sorting; the text when empty
};

using TableRows = std::vector<std::vector<TableCell>>;

class TableModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  static constexpr int SortRole = Qt::UserRole;
  // Each row may carry a payload (e.g. the time range of a step).
  static constexpr int PayloadRole = Qt::UserRole + 1;

  explicit TableModel(QStringList headers, QObject* parent = nullptr);

  void set_rows(TableRows rows, std::vector<QVariant> payloads = {});

  int rowCount(const QModelIndex& parent = {}) const override;
  int columnCount(const QModelIndex& parent = {}) const override;
  QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  QStringList headers_;
  TableRows rows_;
  std::vector<QVariant> payloads_;
};

}  // namespace gpuprof::gui
