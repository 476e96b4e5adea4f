#include "gpuprof/gui/models/table_model.hpp"

namespace gpuprof::gui {

TableModel::TableModel(QStringList headers, QObject* parent)
    : QAbstractTableModel(parent), headers_(std::move(headers)) {}

void TableModel::set_rows(TableRows rows, std::vector<QVariant> payloads) {
  beginResetModel();
  rows_ = std::move(rows);
  payloads_ = std::move(payloads);
  for (auto& row : rows_) row.resize(static_cast<std::size_t>(headers_.size()));
  endResetModel();
}

int TableModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int TableModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(headers_.size());
}

QVariant TableModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto& cell = rows_[static_cast<std::size_t>(index.row())][static_cast<std::size_t>(index.column())];
  switch (role) {
    case Qt::DisplayRole: return cell.text;
    case Qt::ToolTipRole: return cell.text;
    case SortRole: return cell.raw.isValid() ? cell.raw : QVariant(cell.text);
    case Qt::TextAlignmentRole:
      return QVariant::fromValue(cell.raw.isValid() && cell.raw.typeId() != QMetaType::QString
                                     ? Qt::Alignment(Qt::AlignRight | Qt::AlignVCenter)
                                     : Qt::Alignment(Qt::AlignLeft | Qt::AlignVCenter));
    case PayloadRole:
      return static_cast<std::size_t>(index.row()) < payloads_.size() ? payloads_[static_cast<std::size_t>(index.row())]
                                                                      : QVariant();
    default: return {};
  }
}

QVariant TableModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (role != Qt::DisplayRole || section < 0) return {};
  if (orientation == Qt::Horizontal) return section < headers_.size() ? QVariant(headers_[section]) : QVariant();
  return section < rowCount() ? QVariant(section + 1) : QVariant();
}

}  // namespace gpuprof::gui
