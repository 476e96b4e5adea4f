#include "gpuprof/gui/table_views.hpp"

#include <QEvent>
#include <QVariant>
#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>

#include <algorithm>

#include "gpuprof/gui/models/table_model.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kShortNameChars = 12;
constexpr const char* kFitterProperty = "gpuprof_column_fitter";

// The width a column's widest shown cell needs (public on the base class, protected on QTableView).
int content_width(const QTableView* view, int column) {
  return static_cast<const QAbstractItemView*>(view)->sizeHintForColumn(column);
}

void fit_columns_now(QTableView* view, int elastic, int shown) {
  if (!view->model()) return;
  auto* header = view->horizontalHeader();
  const int columns = view->model()->columnCount();
  int used = 0;
  for (int column = 0; column < columns; ++column) {
    if (column == elastic || view->isColumnHidden(column)) continue;
    const int width = std::max(header->sectionSizeHint(column), content_width(view, column));
    header->resizeSection(column, width);
    if (column < shown) used += width;
  }
  if (elastic < 0 || elastic >= columns) return;
  const int content = std::max(header->sectionSizeHint(elastic), content_width(view, elastic));
  const int floor = std::min(content, kShortNameChars * view->fontMetrics().averageCharWidth());
  header->resizeSection(elastic, std::max(floor, view->viewport()->width() - used));
}

// Fits the columns again when the table's width changes (a dock dragged wider, another screen).
class ColumnFitter : public QObject {
 public:
  ColumnFitter(QTableView* view, int elastic, int shown) : QObject(view), view_(view), elastic_(elastic), shown_(shown) {}
  bool eventFilter(QObject* watched, QEvent* event) override {
    if (event->type() == QEvent::Resize) fit_columns_now(view_, elastic_, shown_);
    return QObject::eventFilter(watched, event);
  }

 private:
  QTableView* view_;
  int elastic_, shown_;
};

}  // namespace

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

void fit_columns(QTableView* view, int elastic, int shown) {
  auto* header = view->horizontalHeader();
  header->setStretchLastSection(false);
  // Once per view (a property: ColumnFitter has no meta-object of its own for findChild to tell it apart).
  if (!view->property(kFitterProperty).toBool()) {
    view->viewport()->installEventFilter(new ColumnFitter(view, elastic, shown));
    view->setProperty(kFitterProperty, true);
  }
  fit_columns_now(view, elastic, shown);
}

}  // namespace gpuprof::gui
