#include <gtest/gtest.h>

#include "gpuprof/analysis/data_loss.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"

namespace gpuprof::analysis {
namespace {

using trace::Severity;
using trace::StatRow;

// Records CUPTI dropped once the pool was closed (a SIGTERM on an H200: 17 of them) are said as what they
// are, not as buffers that were full.
TEST(RecordingLoss, RecordsDroppedAsTheRecordingStoppedAreNamedApart) {
  const std::vector<StatRow> stats = {{"dropped_records", 0, Severity::info, std::nullopt},
                                      {"records_dropped_after_stop", 17, Severity::warning, std::nullopt},
                                      {"dropped.in_flight_at_exit", 2, Severity::info, std::nullopt}};
  const auto loss = recording_loss(stats);
  EXPECT_EQ(loss.records_after_stop, 17);
  EXPECT_EQ(loss.dropped_records, 2);
  EXPECT_TRUE(loss.any());
  EXPECT_EQ(loss.text(),
            "2 dropped records, 17 records made as the recording stopped (work still running then, or the "
            "program's after it)");
}

TEST(RecordingLoss, NothingLostSaysSo) {
  const std::vector<StatRow> stats = {{"dropped_records", 0, Severity::info, std::nullopt},
                                      {"buffers_used", 12, Severity::info, std::nullopt}};
  EXPECT_FALSE(recording_loss(stats).any());
  EXPECT_EQ(recording_loss(stats).text(), "no loss");
}

// A stat the catalogue marks as data loss is counted by both the report's warnings and the recording loss, whatever
// severity a writer gave it: none silently stops counting.
TEST(DataLoss, EveryDataLossStatInTheCatalogueIsCounted) {
  for (const auto& info : trace::stats_catalogue()) {
    if (!info.data_loss) continue;
    const auto name = info.keyed ? trace::stat_name(info.id, "key") : trace::stat_name(info.id);
    trace::TraceModel model;
    model.stats = {{name, 3, Severity::info, std::nullopt}};
    EXPECT_TRUE(recording_loss(model.stats).any()) << name;
    const auto warnings = data_loss_warnings(model);
    ASSERT_EQ(warnings.size(), 1u) << name;
    EXPECT_NE(warnings[0].find(std::string(info.description)), std::string::npos) << warnings[0];
  }
}

// Before the catalogue a stat was lost data when its name said "dropped" or was one of the collector's buffer
// losses. Every name the code writes is judged as it was then.
TEST(DataLoss, TheCatalogueJudgesEveryKnownNameAsTheNameRuleDid) {
  for (const auto& info : trace::stats_catalogue()) {
    const auto name = info.keyed ? trace::stat_name(info.id, "key") : trace::stat_name(info.id);
    const bool by_name = name.find("dropped") != std::string::npos || name == "buffer_requests_refused" ||
                         name == "buffers_not_returned" || name == "activity_buffers_taken";
    EXPECT_EQ(recording_loss({{name, 1, Severity::info, std::nullopt}}).any(), by_name) << name;
  }
}

TEST(DataLoss, AnUnknownDroppedStatStillCountsAndSaysItIsUnknown) {
  trace::TraceModel model;
  model.stats = {{"future.events_dropped", 4, Severity::info, std::nullopt},
                 {"future.events_seen", 9, Severity::info, std::nullopt}};
  EXPECT_EQ(recording_loss(model.stats).dropped_records, 4);
  const auto warnings = data_loss_warnings(model);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "future.events_dropped = 4 [warning]: not in this gpuprof's catalogue of stats (written by another "
            "version or tool); totals may undercount");
}

TEST(DataLoss, AWarningSaysWhatTheStatCounts) {
  trace::TraceModel model;
  model.stats = {{"import.nvprof.missing_string", 2, Severity::warning, std::string("rows naming an absent id")}};
  const auto warnings = data_loss_warnings(model);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_EQ(warnings[0],
            "import.nvprof.missing_string = 2 (rows naming an absent id) [warning]: rows naming a StringTable id "
            "that is absent; totals may undercount");
}

}  // namespace
}  // namespace gpuprof::analysis
