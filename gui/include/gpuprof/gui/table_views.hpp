#pragma once

// The sortable, filterable table views every panel of the app uses.

class QObject;
class QSortFilterProxyModel;
class QTableView;

namespace gpuprof::gui {

// Sorts by TableModel::SortRole (raw values), filters case-insensitively.
QSortFilterProxyModel* make_proxy(QObject* parent);
// Whole rows selected one at a time, sorting on, no row numbers, the last column stretched.
QTableView* make_table(QSortFilterProxyModel* proxy);

}  // namespace gpuprof::gui
