#include "gpuprof/gui/table_views.hpp"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include "gpuprof/gui/table_model.hpp"

namespace gpuprof::gui {

QSortFilterProxyModel* make_proxy(QObject* parent) {
  auto* proxy = new QSortFilterProxyModel(parent);
  proxy->setSortRole(TableModel::SortRole);
  proxy->setFilterCaseSensitivity(Qt::CaseInsensitive);
  return proxy;
}

QTableView* make_table(QSortFilterProxyModel* proxy) {
  auto* view = new QTableView;
  view->setModel(proxy);
  view->setSortingEnabled(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  view->verticalHeader()->hide();
  view->horizontalHeader()->setStretchLastSection(true);
  return view;
}

}  // namespace gpuprof::gui
