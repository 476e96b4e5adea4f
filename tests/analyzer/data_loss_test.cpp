#include <gtest/gtest.h>

#include "gpuprof/analysis/data_loss.hpp"

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

}  // namespace
}  // namespace gpuprof::analysis
