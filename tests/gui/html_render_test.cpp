// The HTML documents (report, compare, study) as a browser shows them: headless
// Chromium renders each one with its script, the screenshots are kept beside the
// app's, and the DOM after the script shows the tables became sortable.

#include <gtest/gtest.h>

#include <QImage>
#include <QString>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gui_fixtures.hpp"
#include "process_runner.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

namespace fs = std::filesystem;

std::string find_chromium() {
  const char* path = std::getenv("PATH");
  if (!path) return {};
  for (const char* name : {"chromium", "chromium-browser", "google-chrome"}) {
    std::string folders = path;
    for (std::size_t start = 0; start <= folders.size();) {
      const auto end = std::min(folders.find(':', start), folders.size());
      const fs::path candidate = fs::path(folders.substr(start, end - start)) / name;
      if (!candidate.parent_path().empty() && ::access(candidate.c_str(), X_OK) == 0) return candidate.string();
      start = end + 1;
    }
  }
  return {};
}

class HtmlRender : public ::testing::Test {
 protected:
  void SetUp() override {
    chromium_ = find_chromium();
    // A machine set up by scripts/install-dependencies.sh on Debian has it; elsewhere say what is not checked.
    if (chromium_.empty()) GTEST_SKIP() << "no chromium on PATH: the HTML documents are not rendered";
  }

  void gpuprof(const std::vector<std::string>& arguments) {
    std::vector<std::string> command{GPUPROF_BINARY};
    command.insert(command.end(), arguments.begin(), arguments.end());
    const auto result = gpuprof::testing::run_process(command);
    ASSERT_EQ(result.exit_code, 0) << result.err;
  }

  // Screenshot (kept, and checked not blank) and the DOM after the document's script ran.
  std::string render(const std::string& html, const QString& name) {
    const auto png = folder_.file(name.toStdString() + ".png");
    const std::vector<std::string> common{chromium_, "--headless", "--no-sandbox", "--disable-gpu",
                                          "--disable-dev-shm-usage", "--hide-scrollbars", "--window-size=1200,1600"};
    auto shot = common;
    shot.push_back("--screenshot=" + png);
    shot.push_back("file://" + html);
    const auto taken = gpuprof::testing::run_process(shot);
    EXPECT_EQ(taken.exit_code, 0) << taken.err;
    testing::save_and_check(QImage(QString::fromStdString(png)), name);
    auto dump = common;
    dump.push_back("--dump-dom");
    dump.push_back("file://" + html);
    return gpuprof::testing::run_process(dump).out;
  }

  std::string chromium_;
  gpuprof::testing::TemporaryFolder folder_;
};

TEST_F(HtmlRender, ReportCompareAndStudyRenderWithChartsAndSortableTables) {
  const auto one = folder_.file("one.sqlite"), four = folder_.file("four.sqlite");
  testing::write_trace(one, 1, 12);
  testing::write_trace(four, 4, 12);
  const auto report = folder_.file("report.html"), compare = folder_.file("compare.html");
  const auto study_folder = folder_.file("study"), study = folder_.file("study.html");
  gpuprof({"report", four, "--format", "html", "-o", report});
  gpuprof({"compare", one, four, "--format", "html", "-o", compare});
  gpuprof({"sweep", "--synthetic", "--workload", "rnn", "--batch", "64,512", "--gpus", "1,2", "-o", study_folder});
  gpuprof({"study", study_folder, "--format", "html", "-o", study});

  for (const auto& [html, name] : {std::pair{report, QStringLiteral("html_report")},
                                   std::pair{compare, QStringLiteral("html_compare")},
                                   std::pair{study, QStringLiteral("html_study")}}) {
    const auto dom = render(html, name);
    EXPECT_NE(dom.find("<svg"), std::string::npos) << name.toStdString();
    // The script ran: each table got its filter box.
    EXPECT_NE(dom.find("class=\"filter\""), std::string::npos) << name.toStdString();
  }
}

}  // namespace
}  // namespace gpuprof::gui
