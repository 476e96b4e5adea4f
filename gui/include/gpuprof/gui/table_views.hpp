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

// Sizes `view`'s columns to their content and headers, then gives the name column `elastic` (none: -1)
// the width the first `shown` columns leave of the table, at least a short name's (its cells elide as the
// view's text elide mode says; the whole text is the cell's tooltip). So the first `shown` columns are whole
// and on screen in a narrow dock, and the rest follow to the right. Done again whenever the table's width
// changes.
void fit_columns(QTableView* view, int elastic, int shown);

}  // namespace gpuprof::gui
