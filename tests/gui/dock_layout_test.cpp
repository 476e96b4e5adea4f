// The app's docks at the three common screen sizes (issue 39): every tab's title whole and on screen, the
// host summaries' columns whole and inside their tables, the Prediction dock's fields showing their
// placeholders whole and its rows a few lines tall. Checked on widget geometry and font metrics, not pixels.

#include <gtest/gtest.h>

#include <QAbstractButton>
#include <QApplication>
#include <QComboBox>
#include <QDockWidget>
#include <QHeaderView>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QScrollBar>
#include <QStyle>
#include <QTabBar>
#include <QTableView>
#include <QTest>

#include <string>
#include <vector>

#include "gpuprof/gui/host_summary_panel.hpp"
#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/prediction_panel.hpp"
#include "gpuprof/gui/models/prediction_rows.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

using testing::joined;
constexpr int kTimeoutMs = 300'000;  // a safety net for a hung worker, not a performance check

std::string size_name(QSize size) { return std::to_string(size.width()) + "x" + std::to_string(size.height()); }

// The width a column's widest shown cell needs (public on the base class, protected on QTableView).
int content_width(const QTableView& table, int column) {
  return static_cast<const QAbstractItemView&>(table).sizeHintForColumn(column);
}

// A tab bar shows every title whole (no "S…", no scroll buttons hiding tabs).
std::vector<std::string> tab_problems(const QTabBar& bar) {
  std::vector<std::string> problems;
  const int padding = bar.style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, &bar);
  for (int tab = 0; tab < bar.count(); ++tab) {
    const auto title = bar.tabText(tab).remove(QLatin1Char('&'));
    const QRect rect = bar.tabRect(tab);
    if (rect.width() < bar.fontMetrics().horizontalAdvance(title) + padding)
      problems.push_back("tab cut: " + title.toStdString() + " (" + std::to_string(rect.width()) + " px)");
    if (!bar.rect().contains(rect)) problems.push_back("tab off its bar: " + title.toStdString());
  }
  return problems;
}

std::vector<std::string> visible_tab_problems(const QWidget& window) {
  std::vector<std::string> problems;
  for (const auto* bar : window.findChildren<QTabBar*>()) {
    if (!bar->isVisible() || bar->visibleRegion().isEmpty()) continue;  // a bar on screen
    for (const auto& problem : tab_problems(*bar)) problems.push_back(problem);
  }
  return problems;
}

// Every column but `elastic` as wide as its widest cell and its header, the first `shown` inside the table;
// `elastic` (a name) gets the rest, at least `elastic_minimum` pixels.
std::vector<std::string> column_problems(const QTableView& table, int elastic, int elastic_minimum, int shown) {
  std::vector<std::string> problems;
  const auto* header = table.horizontalHeader();
  int right = 0;
  for (int column = 0; column < table.model()->columnCount(); ++column) {
    if (table.isColumnHidden(column)) continue;
    const auto title = table.model()->headerData(column, Qt::Horizontal).toString().toStdString();
    const int width = table.columnWidth(column);
    if (column < shown) right += width;
    if (column == elastic) {
      if (width < elastic_minimum) problems.push_back("narrow: " + title + " " + std::to_string(width) + " px");
      continue;
    }
    const int needed = std::max(header->sectionSizeHint(column), content_width(table, column));
    if (width < needed)
      problems.push_back("cut: " + title + " " + std::to_string(width) + " < " + std::to_string(needed) + " px");
  }
  if (right > table.viewport()->width())
    problems.push_back("first " + std::to_string(shown) + " columns wider than the table: " + std::to_string(right) + " > " +
                       std::to_string(table.viewport()->width()) + " px");
  return problems;
}

// Raises the dock that holds `content`; false when none does.
bool raise_dock_of(const MainWindow& window, const QWidget* content) {
  for (auto* dock : window.docks()) {
    if (dock->widget() != content && !dock->widget()->isAncestorOf(content)) continue;
    dock->raise();
    QApplication::processEvents();
    return true;
  }
  return false;
}

// Strong scaling of the open trace to three GPU counts over PCIe 3: three rows, both charts.
predict::PredictRequest dock_request() {
  predict::PredictRequest request;
  request.gpus = "2,4,8";
  request.link = "pcie3";
  request.scaling = "strong";
  request.grad_bytes = 100'000'000;
  return request;
}

class DockLayout : public ::testing::TestWithParam<QSize> {
 protected:
  // A 1-GPU trace (the Prediction dock predicts it) whose kernels have names as long as PyTorch's.
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    path_ = folder_->file("one_gpu.sqlite");
    testing::write_trace(path_, 1, 8);
    gpuprof::testing::execute_sql(
        path_,
        "UPDATE strings SET value = 'void at::native::vectorized_elementwise_kernel<4, at::native::FillFunctor<"
        "float>, at::detail::Array<char*, 1> >(int, ' || value || ')' WHERE id IN (SELECT name_id FROM kernels) "
        "AND value NOT LIKE '%nccl%';"
        // NVTX ranges as long as a module path (the step ranges keep their names: steps are found by them).
        "UPDATE strings SET value = value || ' (torch/nn/modules/container.py(215): forward; "
        "model.backbone.layer4.2.conv3.weight_standardized_convolution)' WHERE id IN (SELECT name_id FROM ranges) "
        "AND value NOT LIKE '%step%' AND value NOT LIKE '%batch%';");
  }
  static void TearDownTestSuite() { folder_.reset(); }

  void open(MainWindow& window) {
    window.resize(GetParam());
    window.show();
    window.open_files({QString::fromStdString(path_)});
    ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, kTimeoutMs));
    ASSERT_TRUE(window.session());
    QApplication::processEvents();
  }

  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::string path_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> DockLayout::folder_;
std::string DockLayout::path_;

TEST_P(DockLayout, EveryTabTitleIsWholeWhicheverDockIsRaised) {
  MainWindow window;
  open(window);
  std::vector<std::string> problems;
  for (auto* dock : window.docks()) {
    dock->raise();
    QApplication::processEvents();
    for (const auto& problem : visible_tab_problems(window))
      problems.push_back(dock->windowTitle().toStdString() + " raised: " + problem);
  }
  EXPECT_EQ(joined(problems), "") << size_name(GetParam());
  testing::save_and_check(window.grab().toImage(), QStringLiteral("dock_tabs_%1").arg(GetParam().width()));
}

TEST_P(DockLayout, HostSummaryColumnsAreWholeBesideAnElidedName) {
  MainWindow window;
  open(window);
  auto* panel = window.host_summaries();
  ASSERT_TRUE(raise_dock_of(window, panel));
  ASSERT_TRUE(QTest::qWaitFor([&] { return panel->ready(); }, kTimeoutMs));
  for (int tab = 0; tab < 4; ++tab) {
    panel->setCurrentIndex(tab);
    QApplication::processEvents();
    const auto* table = panel->table(tab);
    ASSERT_GT(table->model()->rowCount(), 0) << tab;
    const int name_minimum = std::min(content_width(*table, 0), 12 * table->fontMetrics().averageCharWidth());
    // The NVTX names are longer than the dock is wide: what the check is about.
    if (tab == 0) {
      EXPECT_GT(content_width(*table, 0), table->viewport()->width() / 2);
    }
    // Name, Time (%), Total, Instances, Avg and Rank on screen; the queue table's six columns all.
    EXPECT_EQ(joined(column_problems(*table, tab == 3 ? -1 : 0, name_minimum, 6)), "")
        << size_name(GetParam()) << ", tab " << panel->tabText(tab).toStdString();
    testing::save_and_check(panel->grab().toImage(),
                            QStringLiteral("dock_host_summaries_%1_tab%2").arg(GetParam().width()).arg(tab));
  }
}

TEST_P(DockLayout, ThePredictionDockShowsItsFieldsAndRowsWhole) {
  MainWindow window;
  open(window);
  auto* panel = window.prediction();
  ASSERT_TRUE(raise_dock_of(window, panel));
  auto request = dock_request();
  panel->set_request(request);
  request.grad_bytes.reset();  // the placeholder is what must show whole
  panel->set_request(request);
  QApplication::processEvents();
  auto problems = testing::control_problems(*panel);
  for (const auto* scroll : panel->findChildren<QScrollArea*>()) {
    if (scroll->horizontalScrollBar()->isVisible()) problems.push_back("the dock scrolls sideways");
  }
  EXPECT_EQ(joined(problems), "") << size_name(GetParam());

  request.grad_bytes = 100'000'000;
  panel->set_request(request);
  ASSERT_NO_FATAL_FAILURE(testing::press_predict(*panel));
  ASSERT_TRUE(panel->prediction()) << panel->error_text().toStdString();
  QApplication::processEvents();
  const auto* table = panel->rows_table();
  ASSERT_EQ(table->model()->rowCount(), 3);
  // The verdict is the elastic column, one line per row (elided; the selected row's is whole below the table).
  const int verdict_minimum = std::min(content_width(*table, kPredictionVerdictColumn),
                                       16 * table->fontMetrics().averageCharWidth());
  EXPECT_EQ(joined(column_problems(*table, kPredictionVerdictColumn, verdict_minimum,
                                           table->model()->columnCount())), "") << size_name(GetParam());
  for (int row = 0; row < 3; ++row) EXPECT_LT(table->rowHeight(row), 2 * table->fontMetrics().height()) << row;
  // Every row on screen: the table is as tall as its rows.
  EXPECT_GE(table->viewport()->height(), table->verticalHeader()->length());
  EXPECT_TRUE(panel->result_text().contains(QString::fromStdString(panel->prediction()->rows[0].verdict)));
  testing::save_and_check(panel->grab().toImage(), QStringLiteral("dock_prediction_%1").arg(GetParam().width()));
}

// The dock used as a user uses it, every press by the mouse at the button's centre: Predict, a row, a
// per-GPU-batch trace and Clear, Predict again. Each press lands on its button (a press that lands elsewhere
// leaves the last prediction on screen as if it were the new one), and every control lies inside the dock.
TEST_P(DockLayout, ThePredictionDocksButtonsAreUnderTheCursorAfterAPrediction) {
  MainWindow window;
  open(window);
  auto* panel = window.prediction();
  ASSERT_TRUE(raise_dock_of(window, panel));
  panel->set_request(dock_request());
  const auto predict_once = [&] {
    ASSERT_NO_FATAL_FAILURE(testing::press_predict(*panel));
    ASSERT_TRUE(panel->prediction()) << panel->error_text().toStdString();
    QApplication::processEvents();
  };
  ASSERT_NO_FATAL_FAILURE(predict_once());
  auto* table = panel->rows_table();
  QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, table->visualRect(table->model()->index(2, 0)).center());
  EXPECT_EQ(panel->selected_row(), 2u);
  panel->set_per_gpu_trace(QString::fromStdString(path_));
  ASSERT_NO_FATAL_FAILURE(testing::click_as_user(*panel->per_gpu_clear_button()));
  EXPECT_TRUE(panel->per_gpu_trace().isEmpty());
  ASSERT_NO_FATAL_FAILURE(predict_once());
  // Every control, the table and the charts inside the dock's visible width: nothing cut off at the right.
  const auto* scroll = panel->findChild<QScrollArea*>();
  ASSERT_NE(scroll, nullptr);
  std::vector<std::string> problems;
  const auto inside_a_table = [](const QWidget* widget) {
    for (auto* parent = widget->parentWidget(); parent; parent = parent->parentWidget())
      if (qobject_cast<const QTableView*>(parent)) return true;
    return false;
  };
  for (const auto* control : scroll->widget()->findChildren<QWidget*>()) {
    if (!control->isVisible() || inside_a_table(control)) continue;
    const QRect placed(control->mapTo(scroll->viewport(), QPoint(0, 0)), control->size());
    if (placed.left() < 0 || placed.right() >= scroll->viewport()->width())
      problems.push_back(std::string(control->metaObject()->className()) + " cut off sideways: " +
                         std::to_string(placed.left()) + ".." + std::to_string(placed.right()) + " in " +
                         std::to_string(scroll->viewport()->width()) + " px");
  }
  EXPECT_EQ(joined(problems), "") << size_name(GetParam());
  // After a prediction the charts are in the dock too: it still does not scroll sideways (the waterfall's
  // minimum width and the column's margins made it scroll 8 px, a scroll bar for an empty margin).
  EXPECT_FALSE(scroll->horizontalScrollBar()->isVisible())
      << size_name(GetParam()) << ": content " << scroll->widget()->width() << " px in " << scroll->viewport()->width();
}

std::string screen_name(const ::testing::TestParamInfo<QSize>& screen) { return std::to_string(screen.param.width()); }

INSTANTIATE_TEST_SUITE_P(Screens, DockLayout,
                         ::testing::Values(QSize(1280, 800), QSize(1600, 1000), QSize(1920, 1080)), screen_name);

}  // namespace
}  // namespace gpuprof::gui
