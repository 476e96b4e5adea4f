// Track groups: a rank, a GPU's streams and a rank's host threads collapse and expand, and pin to the top,
// where they stay while the rest scrolls; the view keeps that state while it shows the session.

#include <gtest/gtest.h>

#include <QApplication>
#include <QTest>

#include <atomic>
#include <map>
#include <set>

#include "gpuprof/gui/timeline_layout.hpp"
#include "gpuprof/gui/timeline_view.hpp"
#include "gui_fixtures.hpp"
#include "job_test_support.hpp"
#include "temporary_folder.hpp"

namespace gpuprof::gui {
namespace {

class TrackGroups : public ::testing::Test {
 protected:
  // Two ranks of two GPUs each.
  static void SetUpTestSuite() {
    folder_ = std::make_unique<gpuprof::testing::TemporaryFolder>();
    synthetic::SynthOptions options;
    options.devices = 2;
    options.steps = 4;
    options.kernels_per_step = 4;
    for (int rank = 0; rank < 2; ++rank) {
      gpuprof::testing::write_rank(folder_->file("rank" + std::to_string(rank) + ".sqlite"), rank, 2, options);
    }
    const std::atomic<bool> cancel{false};
    session_ = load_session({folder_->path().string()}, {}, cancel);
  }
  static void TearDownTestSuite() {
    session_.reset();
    folder_.reset();
  }

  static std::size_t rows_of(const TimelineLayout& layout, std::size_t rank, RowKind kind) {
    std::size_t count = 0;
    for (const auto& place : layout.rows) {
      count += place.rank == rank && place.row && session_->ranks[rank]->timeline.rows[*place.row].kind == kind;
    }
    return count;
  }
  static std::size_t timeline_rows(std::size_t rank, RowKind kind) {
    std::size_t count = 0;
    for (const auto& row : session_->ranks[rank]->timeline.rows) count += row.kind == kind;
    return count;
  }
  static const LayoutRow* header(const TimelineLayout& layout, const GroupKey& key) {
    for (const auto& place : layout.rows) {
      if (place.heads == key) return &place;
    }
    return nullptr;
  }
  static LayoutOptions with(std::initializer_list<GroupKey> collapsed, std::initializer_list<GroupKey> pinned) {
    LayoutOptions options;
    options.groups.collapsed = collapsed;
    options.groups.pinned = pinned;
    return options;
  }

  static std::unique_ptr<gpuprof::testing::TemporaryFolder> folder_;
  static std::shared_ptr<const Session> session_;
};
std::unique_ptr<gpuprof::testing::TemporaryFolder> TrackGroups::folder_;
std::shared_ptr<const Session> TrackGroups::session_;

// Whatever is collapsed or pinned: no timeline row twice, rows in order and apart within each area, the
// pinned area first, and the heights adding up.
void expect_consistent(const TimelineLayout& layout) {
  std::set<std::pair<std::size_t, std::size_t>> seen;
  bool scrolled = false;
  int next_y = 0;
  for (const auto& place : layout.rows) {
    if (place.row) {
      EXPECT_TRUE(seen.insert({place.rank, *place.row}).second) << "rank " << place.rank << " row " << *place.row;
    }
    if (!place.pinned) scrolled = true;
    EXPECT_FALSE(scrolled && place.pinned) << "a pinned row after the scrolling ones";
    EXPECT_GE(place.y, next_y);
    next_y = place.y + place.height;
    if (place.pinned) {
      EXPECT_LE(next_y, layout.pinned_height);
    } else {
      EXPECT_GE(place.y, layout.pinned_height);
    }
  }
  EXPECT_LE(next_y, layout.height);
}

TEST_F(TrackGroups, EveryRowHasAGroupHeaderAbove) {
  const auto layout = layout_timeline(*session_);
  expect_consistent(layout);
  EXPECT_EQ(layout.pinned_height, 0);
  for (std::size_t rank = 0; rank < 2; ++rank) {
    ASSERT_NE(header(layout, {rank, GroupKind::rank}), nullptr);
    ASSERT_NE(header(layout, {rank, GroupKind::streams, 0}), nullptr);
    const auto* threads = header(layout, {rank, GroupKind::host_threads});
    ASSERT_NE(threads, nullptr);
    EXPECT_EQ(static_cast<std::size_t>(threads->members), timeline_rows(rank, RowKind::host_thread));
    EXPECT_EQ(rows_of(layout, rank, RowKind::stream), timeline_rows(rank, RowKind::stream));
  }
}

TEST_F(TrackGroups, ACollapsedRankKeepsOnlyItsHeader) {
  const auto full = layout_timeline(*session_);
  const auto collapsed = layout_timeline(*session_, with({{1, GroupKind::rank}}, {}));
  expect_consistent(collapsed);
  std::size_t rank1 = 0;
  for (const auto& place : collapsed.rows) rank1 += place.rank == 1;
  EXPECT_EQ(rank1, 1u);
  const auto* head = header(collapsed, {1, GroupKind::rank});
  ASSERT_NE(head, nullptr);
  EXPECT_TRUE(head->collapsed);
  EXPECT_EQ(row_label(*session_, collapsed, *head).rfind("▸ Rank 1", 0), 0u);
  EXPECT_EQ(row_label(*session_, full, *header(full, {1, GroupKind::rank})).rfind("▾ Rank 1", 0), 0u);
  EXPECT_EQ(collapsed.height, head->y + head->height + kRowGap);
  EXPECT_LT(collapsed.height, full.height);
}

TEST_F(TrackGroups, ACollapsedGpuDrawsItsStreamsInItsOwnRow) {
  const auto layout = layout_timeline(*session_, with({{0, GroupKind::streams, 1}}, {}));
  expect_consistent(layout);
  const auto* gpu = header(layout, {0, GroupKind::streams, 1});
  ASSERT_NE(gpu, nullptr);
  ASSERT_TRUE(gpu->row);
  EXPECT_TRUE(gpu->collapsed);
  EXPECT_EQ(gpu->height, kCompactRowHeight);
  std::size_t streams_of_gpu1 = 0, shown = 0;
  const auto& rows = session_->ranks[0]->timeline.rows;
  for (std::size_t row = 0; row < rows.size(); ++row) {
    if (rows[row].kind != RowKind::stream || rows[row].device != 1) continue;
    ++streams_of_gpu1;
    shown += layout.find(0, row) != nullptr;
  }
  EXPECT_GT(streams_of_gpu1, 0u);
  EXPECT_EQ(shown, 0u);
  EXPECT_EQ(static_cast<std::size_t>(gpu->members), streams_of_gpu1);
  // GPU 0 and the other rank keep their streams.
  EXPECT_EQ(rows_of(layout, 0, RowKind::stream), timeline_rows(0, RowKind::stream) - streams_of_gpu1);
  EXPECT_EQ(rows_of(layout, 1, RowKind::stream), timeline_rows(1, RowKind::stream));
}

TEST_F(TrackGroups, CollapsedHostThreadsLeaveTheirHeaderWithTheCount) {
  const auto layout = layout_timeline(*session_, with({{0, GroupKind::host_threads}}, {}));
  expect_consistent(layout);
  EXPECT_EQ(rows_of(layout, 0, RowKind::host_thread), 0u);
  EXPECT_EQ(rows_of(layout, 1, RowKind::host_thread), timeline_rows(1, RowKind::host_thread));
  const auto* threads = header(layout, {0, GroupKind::host_threads});
  ASSERT_NE(threads, nullptr);
  EXPECT_EQ(row_label(*session_, layout, *threads),
            "▸ host threads (" + std::to_string(timeline_rows(0, RowKind::host_thread)) + ")");
}

TEST_F(TrackGroups, APinnedRankLeadsAndStaysWhileTheRestScrolls) {
  const auto layout = layout_timeline(*session_, with({}, {{1, GroupKind::rank}}));
  expect_consistent(layout);
  ASSERT_FALSE(layout.rows.empty());
  EXPECT_EQ(layout.rows.front().heads, (GroupKey{1, GroupKind::rank}));
  std::size_t pinned = 0, rank1 = 0;
  for (const auto& place : layout.rows) {
    pinned += place.pinned;
    rank1 += place.rank == 1;
    EXPECT_EQ(place.pinned, place.rank == 1);
  }
  EXPECT_EQ(pinned, rank1);
  EXPECT_GT(layout.pinned_height, 0);
  // Scrolled far down, the pinned rows are still under the same pixels; the others moved.
  const int scroll = 200;
  const auto& first = layout.rows.front();
  EXPECT_EQ(row_top(first, scroll), kRulerHeight + first.y);
  EXPECT_EQ(layout.row_at(kRulerHeight + first.y + 1, scroll), &first);
  const auto* below = layout.row_at(kRulerHeight + layout.pinned_height + 5, scroll);
  ASSERT_NE(below, nullptr);
  EXPECT_FALSE(below->pinned);
  EXPECT_LE(below->y, layout.pinned_height + 5 + scroll);
  EXPECT_GT(below->y + below->height, layout.pinned_height + 5 + scroll);
}

TEST_F(TrackGroups, APinnedGpuLeavesItsRankAndSaysWhose) {
  const auto layout = layout_timeline(*session_, with({}, {{1, GroupKind::streams, 0}}));
  expect_consistent(layout);
  const auto& first = layout.rows.front();
  EXPECT_EQ(first.heads, (GroupKey{1, GroupKind::streams, 0}));
  EXPECT_TRUE(first.pinned);
  EXPECT_EQ(row_label(*session_, layout, first), "▾ r1 GPU 0");
  // Its streams came with it; the rank keeps the rest where it was.
  EXPECT_EQ(rows_of(layout, 1, RowKind::stream), timeline_rows(1, RowKind::stream));
  for (const auto& place : layout.rows) {
    if (!place.row || place.rank != 1) continue;
    const auto& row = session_->ranks[1]->timeline.rows[*place.row];
    EXPECT_EQ(place.pinned, row.kind != RowKind::host_thread && row.device == 0);
  }
}

TEST_F(TrackGroups, CompactModePinsWholeRanks) {
  LayoutOptions options = with({{0, GroupKind::rank}}, {{1, GroupKind::rank}});
  options.compact = true;
  const auto layout = layout_timeline(*session_, options);
  expect_consistent(layout);
  ASSERT_EQ(layout.rows.size(), 4u);  // nothing collapses in compact mode: 2 ranks x 2 GPUs
  EXPECT_TRUE(layout.rows[0].pinned);
  EXPECT_EQ(layout.rows[0].rank, 1u);
  EXPECT_EQ(layout.rows[1].rank, 1u);
  EXPECT_FALSE(layout.rows[2].pinned);
}

TEST_F(TrackGroups, TheViewKeepsItsGroupsWhileItShowsTheSession) {
  TimelineView view;
  view.resize(1200, 700);
  view.show();
  view.set_session(session_);
  const auto* rank1 = header(view.layout(), {1, GroupKind::rank});
  ASSERT_NE(rank1, nullptr);
  // A click on the rank's label collapses it.
  QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, row_top(*rank1, view.scroll_y()) + 5));
  EXPECT_TRUE(view.layout_options().groups.is_collapsed({1, GroupKind::rank}));
  view.toggle_pinned({0, GroupKind::host_threads});
  // Switching compact mode on and off (the View menu) keeps both.
  auto options = view.layout_options();
  options.compact = true;
  view.set_layout_options(options);
  options = view.layout_options();
  options.compact = false;
  view.set_layout_options(options);
  EXPECT_TRUE(view.layout_options().groups.is_collapsed({1, GroupKind::rank}));
  EXPECT_TRUE(view.layout_options().groups.is_pinned({0, GroupKind::host_threads}));
  EXPECT_EQ(view.layout().rows.front().heads, (GroupKey{0, GroupKind::host_threads}));
  EXPECT_EQ(view.group_at(QPoint(20, kRulerHeight + view.layout().rows.front().y + 3)),
            (GroupKey{0, GroupKind::host_threads}));
  QApplication::processEvents();
  testing::save_and_check(view.render_image({1200, 700}), QStringLiteral("timeline_groups_pinned_collapsed"));
  // A second click expands it again.
  rank1 = header(view.layout(), {1, GroupKind::rank});
  QTest::mouseClick(&view, Qt::LeftButton, {}, QPoint(20, row_top(*rank1, view.scroll_y()) + 5));
  EXPECT_FALSE(view.layout_options().groups.is_collapsed({1, GroupKind::rank}));
  // Another session starts with every group expanded and nothing pinned.
  view.set_session(session_);
  EXPECT_TRUE(view.layout_options().groups.collapsed.empty());
  EXPECT_TRUE(view.layout_options().groups.pinned.empty());
}

}  // namespace
}  // namespace gpuprof::gui
