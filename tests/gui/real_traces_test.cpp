// The app on traces recorded by others (../shared/data/external): Kineto JSON
// from PyTorch, all ranks of a DLRM job as one job, and an Nsight Systems export.
#include <gtest/gtest.h>

#include <QSortFilterProxyModel>
#include <QTest>

#include <filesystem>

#include "gpuprof/gui/main_window.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

namespace fs = std::filesystem;
constexpr int kLoadTimeoutMs = 300'000;  // a safety net for a hung loader, not a performance check

QStringList external_files(const std::string& folder, const std::string& suffix) {
  QStringList files;
  const fs::path root = gpuprof::testing::external_data_dir() / folder;
  for (const auto& entry : fs::directory_iterator(root)) {
    if (entry.path().string().ends_with(suffix)) files << QString::fromStdString(entry.path().string());
  }
  files.sort();
  return files;
}

// Opens the files as one job and checks what a person would look at first.
void open_and_check(const QStringList& files, std::size_t ranks, const QString& screenshot) {
  MainWindow window;
  window.resize(1600, 1000);
  window.show();
  window.open_files(files);
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.loading(); }, kLoadTimeoutMs));
  ASSERT_TRUE(window.session()) << window.error_text().toStdString();
  EXPECT_TRUE(window.error_text().isEmpty()) << window.error_text().toStdString();
  EXPECT_EQ(window.session()->ranks.size(), ranks);
  EXPECT_GT(window.kernel_proxy()->rowCount(), 0);
  EXPECT_GT(window.session()->ranks[0]->model.kernels.size(), 0U);
  QApplication::processEvents();
  testing::save_and_check(window.grab().toImage(), screenshot);
  testing::save_and_check(window.timeline()->render_image({1600, 900}), screenshot + QStringLiteral("_timeline"));
}

class RealTraces : public ::testing::Test {
 protected:
  void SetUp() override {
    if (gpuprof::testing::external_data_dir().empty()) GTEST_SKIP() << "../shared/data/external is absent";
  }
};

TEST_F(RealTraces, OpensAPyTorchProfilerTraceWithItsSteps) {
  const QStringList files = external_files("kineto-resnet50", "resnet50_num_workers_0.pt.trace.json.gz");
  ASSERT_EQ(files.size(), 1);
  open_and_check(files, 1, QStringLiteral("real_kineto_resnet50"));
}

TEST_F(RealTraces, OpensEightDlrmRanksAsOneJob) {
  const QStringList files = external_files("dlrm-8rank", ".json.gz");
  ASSERT_EQ(files.size(), 8);
  open_and_check(files, 8, QStringLiteral("real_dlrm_8_ranks"));
}

TEST_F(RealTraces, OpensAnNsightSystemsExport) {
  const QStringList files = external_files("nsys-sqlite", "nvfuser_h200_schema3.17.sqlite");
  ASSERT_EQ(files.size(), 1);
  open_and_check(files, 1, QStringLiteral("real_nsys_h200"));
}

}  // namespace
}  // namespace gpuprof::gui
