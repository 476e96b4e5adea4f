#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSortFilterProxyModel>

#include <atomic>
#include <filesystem>
#include <memory>
#include <set>

#include "gpuprof/analysis/kernel_labels.hpp"
#include "gpuprof/gui/models/analysis_tables.hpp"
#include "gpuprof/gui/recent_files.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

// Every warning of QAbstractItemModelTester is a failed check.
int g_model_warnings = 0;
void count_warnings(QtMsgType type, const QMessageLogContext&, const QString& message) {
  if (type != QtDebugMsg && type != QtInfoMsg) {
    ++g_model_warnings;
    ADD_FAILURE() << message.toStdString();
  }
}

class Models : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    const auto path = folder_->file("dp.sqlite");
    testing::write_trace(path, 2, 6);
    session_ = testing::load(path);
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }

  // Runs the tester over the model and over a sorted, filtered proxy of it.
  static void check(QAbstractItemModel* model) {
    g_model_warnings = 0;
    const auto previous = qInstallMessageHandler(count_warnings);
    {
      QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::Warning);
      QSortFilterProxyModel proxy;
      proxy.setSortRole(TableModel::SortRole);
      QAbstractItemModelTester proxy_tester(&proxy, QAbstractItemModelTester::FailureReportingMode::Warning);
      proxy.setSourceModel(model);
      for (int column = 0; column < model->columnCount(); ++column) {
        proxy.sort(column, Qt::DescendingOrder);
        proxy.sort(column, Qt::AscendingOrder);
      }
      proxy.setFilterFixedString(QStringLiteral("a"));
      proxy.setFilterFixedString(QString());
    }
    qInstallMessageHandler(previous);
    EXPECT_EQ(g_model_warnings, 0);
  }

  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};

std::unique_ptr<gpuprof::testing::TemporaryFolder> Models::folder_;
std::shared_ptr<const Session> Models::session_;

TEST_F(Models, KernelModelListsTheAnalyzerSummary) {
  std::unique_ptr<TableModel> model(make_kernel_model(*session_, nullptr));
  check(model.get());
  const auto& kernels = session_->ranks[0]->analysis.kernels.kernels;
  ASSERT_EQ(model->rowCount(), static_cast<int>(kernels.size()));
  // The report's labels in the Name column (shared short names numbered), the full name as the payload the
  // timeline highlights by.
  EXPECT_EQ(model->index(0, kKernelNameColumn).data().toString().toStdString(),
            gpuprof::analysis::kernel_labels(kernels, false)[0]);
  EXPECT_EQ(model->index(0, 0).data(TableModel::PayloadRole).toString().toStdString(), kernels[0].name);
  EXPECT_EQ(model->index(0, kKernelInstancesColumn).data(TableModel::SortRole).toLongLong(),
            kernels[0].stats.instances);
  EXPECT_EQ(model->index(0, kKernelTotalColumn).data(TableModel::SortRole).toLongLong(), kernels[0].stats.total_ns);
  // Names first, so a narrow dock still says which kernel a row is.
  EXPECT_EQ(model->headerData(0, Qt::Horizontal).toString(), QStringLiteral("Name"));
}

TEST_F(Models, KernelRowsOfAJobReadApartByNameAndRank) {
  // Two ranks run the same kernels: before, the Rank column sat out of sight and rows read the same.
  gpuprof::testing::TemporaryFolder job;
  const auto rank0 = job.file("rank0.sqlite"), rank1 = job.file("rank1.sqlite");
  testing::write_trace(rank0, 2, 6);
  std::filesystem::copy_file(rank0, rank1);
  gpuprof::testing::set_rank(rank1, 1);
  const std::atomic<bool> cancel{false};
  const auto session = load_session({rank0, rank1}, {}, cancel);
  ASSERT_EQ(session->ranks.size(), 2U);
  std::unique_ptr<TableModel> model(make_kernel_model(*session, nullptr));
  EXPECT_EQ(model->headerData(kKernelRankColumn, Qt::Horizontal).toString(), QStringLiteral("Rank"));
  std::set<std::pair<QString, QString>> seen;
  for (int row = 0; row < model->rowCount(); ++row) {
    const auto key = std::make_pair(model->index(row, kKernelNameColumn).data().toString(),
                                    model->index(row, kKernelRankColumn).data().toString());
    EXPECT_TRUE(seen.insert(key).second) << "two rows read " << key.first.toStdString() << " on rank "
                                         << key.second.toStdString();
  }
}

TEST_F(Models, KernelProxySortsByValueAndFilters) {
  std::unique_ptr<TableModel> model(make_kernel_model(*session_, nullptr));
  QSortFilterProxyModel proxy;
  proxy.setSourceModel(model.get());
  proxy.setSortRole(TableModel::SortRole);
  proxy.sort(kKernelTotalColumn, Qt::AscendingOrder);
  for (int row = 1; row < proxy.rowCount(); ++row) {
    EXPECT_LE(proxy.index(row - 1, kKernelTotalColumn).data(TableModel::SortRole).toLongLong(),
              proxy.index(row, kKernelTotalColumn).data(TableModel::SortRole).toLongLong());
  }
  proxy.setFilterKeyColumn(kKernelNameColumn);
  proxy.setFilterFixedString(QStringLiteral("nccl"));
  ASSERT_GT(proxy.rowCount(), 0);
  EXPECT_LT(proxy.rowCount(), model->rowCount());
  for (int row = 0; row < proxy.rowCount(); ++row) {
    EXPECT_TRUE(proxy.index(row, kKernelNameColumn).data().toString().contains(QStringLiteral("nccl")));
  }
}

TEST_F(Models, StepModelCarriesStepRangesAndGaps) {
  std::unique_ptr<TableModel> model(make_step_model(*session_, nullptr));
  check(model.get());
  const auto& steps = session_->ranks[0]->analysis.steps;
  ASSERT_EQ(model->rowCount(), static_cast<int>(steps.size()));
  const auto range = model->index(0, 0).data(TableModel::PayloadRole).value<QList<qint64>>();
  ASSERT_EQ(range.size(), 3);
  EXPECT_EQ(range[0], steps[0].step.start_ns);
  EXPECT_EQ(range[1], steps[0].step.end_ns);
  EXPECT_EQ(range[2], 0);  // rank index, for drawing on the reference clock
  int with_gap = 0;
  for (int row = 0; row < model->rowCount(); ++row) with_gap += model->index(row, 8).data().toString() != "-";
  EXPECT_EQ(with_gap, static_cast<int>(session_->ranks[0]->analysis.gaps.size()));
}

TEST_F(Models, TransferModelHasKindsThenPairs) {
  std::unique_ptr<TableModel> model(make_transfer_model(*session_, nullptr));
  check(model.get());
  const auto& transfers = session_->ranks[0]->analysis.transfers;
  ASSERT_EQ(model->rowCount(), static_cast<int>(transfers.kinds.size() + transfers.pairs.size()));
  EXPECT_EQ(model->index(0, 2).data().toString(), QStringLiteral("all"));
  EXPECT_EQ(model->index(0, 4).data(TableModel::SortRole).toLongLong(), transfers.kinds[0].totals.count);
}

// The synthetic trace with collectives rows added for three kernels, one of them of unknown size.
std::shared_ptr<const Session> session_with_collectives(const std::string& path) {
  testing::write_trace(path, 2, 6);
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute(
      "INSERT INTO strings VALUES ((SELECT count(*) FROM strings), 'allreduce');"
      "INSERT INTO collectives SELECT device, correlation_id, (SELECT id FROM strings WHERE value = 'allreduce'),"
      " 1000, 1000, 4000, 4000, NULL, 2, NULL, NULL, NULL FROM kernels WHERE correlation_id IS NOT NULL"
      " ORDER BY rowid LIMIT 2;"
      "INSERT INTO collectives SELECT device, correlation_id, (SELECT id FROM strings WHERE value = 'allreduce'),"
      " NULL, NULL, NULL, NULL, NULL, 2, NULL, NULL, NULL FROM kernels WHERE correlation_id IS NOT NULL"
      " ORDER BY rowid LIMIT 1 OFFSET 2;");
  database.close();
  return testing::load(path);
}

TEST_F(Models, CollectiveModelShowsTheAnalyzerGroups) {
  const auto session = session_with_collectives(folder_->file("collectives.sqlite"));
  std::unique_ptr<TableModel> model(make_collective_model(*session, nullptr));
  check(model.get());
  const auto& groups = session->ranks[0]->analysis.collectives.groups;
  ASSERT_EQ(groups.size(), 2U);  // 4000 bytes, and unknown size
  ASSERT_EQ(model->rowCount(), 2);
  EXPECT_EQ(model->headerData(8, Qt::Horizontal).toString(), QStringLiteral("Bus GB/s"));
  for (int row = 0; row < 2; ++row) {
    const auto& group = groups[static_cast<std::size_t>(row)];
    EXPECT_EQ(model->index(row, 1).data().toString(), QStringLiteral("all_reduce"));
    EXPECT_EQ(model->index(row, 2).data(TableModel::SortRole).toLongLong(), 2);
    EXPECT_EQ(model->index(row, 4).data(TableModel::SortRole).toLongLong(), group.count);
    EXPECT_EQ(model->index(row, 5).data(TableModel::SortRole).toLongLong(), group.total_ns);
    if (group.bus_gbps) {
      EXPECT_DOUBLE_EQ(model->index(row, 8).data(TableModel::SortRole).toDouble(), *group.bus_gbps);
    } else {
      EXPECT_EQ(model->index(row, 8).data().toString(), QStringLiteral("-"));
      EXPECT_EQ(model->index(row, 3).data().toString(), QStringLiteral("-"));
    }
  }
  // A trace without collective metadata gives an empty, valid model.
  std::unique_ptr<TableModel> empty(make_collective_model(*session_, nullptr));
  check(empty.get());
  EXPECT_EQ(empty->rowCount(), 0);
}

TEST_F(Models, EmptyModelIsValid) {
  TableModel model({"A", "B"});
  check(&model);
  model.set_rows({{{QStringLiteral("x"), 1}, {QStringLiteral("y"), {}}}});
  check(&model);
  EXPECT_EQ(model.rowCount(), 1);
}

TEST(RecentFiles, KeepsMostRecentJobFirstWithoutDuplicates) {
  RecentFiles recent;
  recent.clear();
  recent.add({"a.sqlite"});
  recent.add({"b0.sqlite", "b1.sqlite"});
  recent.add({"a.sqlite"});
  const auto jobs = recent.jobs();
  ASSERT_EQ(jobs.size(), 2);
  EXPECT_EQ(jobs[0], QStringList{"a.sqlite"});
  EXPECT_EQ(jobs[1], (QStringList{"b0.sqlite", "b1.sqlite"}));
  for (int i = 0; i < 20; ++i) recent.add({QString::number(i)});
  EXPECT_EQ(recent.jobs().size(), RecentFiles::kMaxEntries);
  recent.clear();
}

}  // namespace
}  // namespace gpuprof::gui
