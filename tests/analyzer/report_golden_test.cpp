#include <gtest/gtest.h>

#include <cstdlib>
#include <algorithm>
#include <filesystem>

#include "gpuprof/report/report_writers.hpp"
#include "gpuprof/report/table_rendering.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "model_builder.hpp"
#include "temporary_folder.hpp"

// Golden files live in tests/analyzer/golden/. After an intended change to a
// report, regenerate them with GPUPROF_UPDATE_GOLDEN=1 and review the diff.

namespace gpuprof::report {
namespace {

using testing::ModelBuilder;
using trace::CopyKind;

// Two steps on two GPUs with communication, peer copies, a pageable upload,
// and kernel names an attacker could have put into a trace.
trace::TraceModel golden_model(int rank) {
  ModelBuilder builder;
  builder.meta("rank", std::to_string(rank));
  const char* evil = "<script>alert(\"x\")</script>";
  for (int device = 0; device < 2; ++device) {
    for (int step = 0; step < 3; ++step) {
      const std::int64_t base = step * 10'000;
      const std::int64_t correlation = device * 100 + step * 10;
      const std::int64_t thread = 1000 + device;
      if (device == 0) builder.range(thread, base, base + 9'000, "step " + std::to_string(step));
      else builder.range(thread, base, base + 9'000, "step " + std::to_string(step));
      builder.api_call(thread, base + 100, base + 110, correlation + 1);
      builder.kernel(device, 7, base + 1'000, base + 4'000, "gemm_kernel", correlation + 1);
      builder.api_call(thread, base + 200, base + 210, correlation + 2);
      builder.kernel(device, 7, base + 4'000, base + 5'000 + device * 500, evil, correlation + 2);
      builder.api_call(thread, base + 300, base + 310, correlation + 3);
      builder.kernel(device, 21, base + 4'500, base + 6'000, "ncclDevKernel_AllReduce_Sum", correlation + 3);
      builder.api_call(thread, base + 400, base + 410, correlation + 4);
      builder.memcpy(device, 25, base + 5'500, base + 6'500, CopyKind::peer_to_peer, 1 << 20, device, 1 - device,
                     trace::MemoryKind::device, correlation + 4);
      builder.api_call(thread, base + 500, base + 510, correlation + 5);
      builder.kernel(device, 7, base + 6'500, base + 7'000, "=HYPERLINK(\"http://x\"),a|b", correlation + 5);
      builder.range(thread, base + 7'200, base + 9'800, "data");
    }
  }
  builder.api_call(1000, 20'050, 20'900, 999, "cudaMemcpy");
  builder.memcpy(0, 7, 20'900, 21'000, CopyKind::host_to_device, 4096, trace::kUnknown32, 0, trace::MemoryKind::pageable, 999);
  // A mangled name from an older file, launched outside every step: it runs in step 1's batch gap.
  builder.kernel(0, 9, 20'700, 20'800, "_Z10dgemv_kernILi128EEviiPKdS1_Pd");
  auto model = builder.build();
  model.stats.push_back({"invalid_buffers", 2, trace::Severity::warning, std::string("buffer without records")});
  model.path = "rank" + std::to_string(rank) + ".sqlite";
  return model;
}

ReportInput golden_input() {
  ReportInput input;
  for (int rank = 0; rank < 2; ++rank) input.ranks.push_back(analysis::analyze_rank(golden_model(rank), {}));
  return input;
}

void expect_golden(const std::string& name, const std::string& actual) {
  const auto path = std::filesystem::path(GPUPROF_SOURCE_DIR) / "tests/analyzer/golden" / name;
  if (std::getenv("GPUPROF_UPDATE_GOLDEN") != nullptr) {
    gpuprof::testing::write_file(path.string(), actual);
    return;
  }
  ASSERT_TRUE(std::filesystem::exists(path)) << path << " is missing; run with GPUPROF_UPDATE_GOLDEN=1";
  EXPECT_EQ(actual, gpuprof::testing::read_file(path.string())) << "differs from " << path;
}

TEST(ReportGolden, Text) { expect_golden("report.txt", render_text(golden_input())); }
TEST(ReportGolden, Markdown) { expect_golden("report.md", render_markdown(golden_input())); }
TEST(ReportGolden, Csv) { expect_golden("report.csv", render_csv(golden_input())); }
TEST(ReportGolden, Json) { expect_golden("report.json", render_json(golden_input())); }
TEST(ReportGolden, Html) { expect_golden("report.html", render_html(golden_input())); }

TEST(ReportEscaping, UntrustedNamesNeverReachMarkupOrFormulas) {
  auto input = golden_input();
  input.full_names = true;  // short names drop most of a hostile name; the whole one must be safe too
  const auto html = render_html(input);
  // The only script is the document's own table script, at the end.
  const auto own_script = html.find(html_script());
  ASSERT_NE(own_script, std::string::npos);
  EXPECT_EQ(html.find("<script"), own_script);
  EXPECT_EQ(html.find("<script", own_script + 1), std::string::npos);
  EXPECT_NE(html.find("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;"), std::string::npos);
  const auto csv = render_csv(input);
  EXPECT_NE(csv.find("\"'=HYPERLINK(\"\"http://x\"\"),a|b\""), std::string::npos);
  EXPECT_EQ(csv.find(",=HYPERLINK"), std::string::npos);
  const auto markdown = render_markdown(input);
  EXPECT_NE(markdown.find("a\\|b"), std::string::npos);
  EXPECT_EQ(markdown.find("<script>"), std::string::npos);
}

TEST(ReportWriters, CsvFolderGetsOneFilePerTable) {
  gpuprof::testing::TemporaryFolder folder;
  const auto output = folder.file("out") + "/";
  write_report(Format::csv, golden_input(), output);
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(output)) names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"categories.csv", "comm_rules.csv", "devices.csv", "gaps.csv",
                                             "kernels.csv", "launches.csv", "steady_state.csv", "steps.csv",
                                             "transfer_flags.csv", "transfer_kinds.csv", "transfer_matrix.csv",
                                             "transfers.csv"}));
  const auto devices = gpuprof::testing::read_file(output + "devices.csv");
  EXPECT_EQ(devices.substr(0, devices.find('\n')),
            "Rank,Device,Windows,Steps,Window,Computation,Comm,Exposed comm,Memcpy,Exposed memcpy,Busy,Idle,"
            "Idle in steps,Batch gaps,Idle%,Comm hidden%,Memcpy hidden%");
}

TEST(ReportWriters, SectionsLimitTheOutput) {
  auto input = golden_input();
  input.sections = {Section::gaps};
  const auto text = render_text(input);
  EXPECT_NE(text.find("Batch gaps"), std::string::npos);
  EXPECT_EQ(text.find("Kernel summary"), std::string::npos);
  const auto json = render_json(input);
  EXPECT_NE(json.find("\"kernels\": []"), std::string::npos);
  EXPECT_THROW(section_from_string("everything"), TraceError);
  EXPECT_THROW(format_from_string("pdf"), TraceError);
}

}  // namespace
}  // namespace gpuprof::report
