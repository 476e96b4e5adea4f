#pragma once

// What one "open" produces: every trace of a job (one file per rank) loaded,
// laid out for the timeline and analysed by the analyzer library. Qt-free, so
// the loader thread, the tests and the benchmark share it. Opening is two
// stages, so the first timeline does not wait for the analyses (as hotspot
// parses off the GUI thread and shows what it has): load_session_timeline
// (loading, timeline rows, kernel categories, the correlation index), then
// analyse_session (every rank's analyses and the job's) applied to the
// session once done.

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "gpuprof/analysis/classification.hpp"
#include "gpuprof/analysis/correlation_index.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
#include "gpuprof/gui/timeline_data.hpp"
#include "gpuprof/job/job_analysis.hpp"
#include "gpuprof/job/rank_summary.hpp"
#include "gpuprof/trace/kernel_launch_details.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::gui {

struct LoadedRank {
  std::string source_path;  // the file the user opened (may be a Kineto or Nsight file)
  trace::TraceModel model;
  analysis::RankAnalysis analysis;  // before the analyses ran: its rank and path only
  std::unique_ptr<analysis::CorrelationIndex> correlations;
  std::vector<analysis::KernelCategory> name_categories;  // per StringId: NCCL kernels are drawn apart
  RankTimeline timeline;
  // The kernels' grid and block (model.kernels.grid, .block), for the Details pane and the prediction: a
  // gpuprof file's are read with the analyses, after the first timeline (it draws none); an imported
  // file's with its model. Pending until apply_analyses; then either in the model or not read, and why.
  bool launch_details_pending = false;
  std::string launch_details_problem;
};

struct Session {
  std::vector<std::unique_ptr<LoadedRank>> ranks;  // ascending rank
  std::int64_t start_ns = 0, end_ns = 0;           // union of the ranks' timelines
  // The job-level summaries (clock alignment, collective waits) that the comparison library needs.
  job::JobAnalysis job;
  std::string step_pattern;  // the one the analyses used (AnalysisOptions::step_pattern)
  analysis::AnalysisOptions options;  // as the caller gave them (an export analyses the traces again with them)
  // False until apply_analyses: the timeline is drawn without steps, gaps, idle causes, rank marks or aligned
  // clocks, and the docks wait.
  bool analysed = false;

  bool empty() const { return ranks.empty(); }
  std::vector<std::string> paths() const;
  std::size_t event_count() const;
};

// Thrown by load_session when `cancel` was set; nothing is returned.
struct LoadCancelled {};

// Stages of 1000 units each: loading and importing move within theirs by the
// rows or bytes done (progress::ProgressUpdate), the others jump whole.
struct LoadProgress {
  int done = 0, total = 1;
  std::string stage;  // "Loading run1.sqlite", ...
};

// Loads, imports (foreign formats), analyses and lays out every file: the three functions below in a row.
// Throws TraceError naming the file on bad input, LoadCancelled when cancelled (checked between stages).
std::shared_ptr<Session> load_session(const std::vector<std::string>& paths, const analysis::AnalysisOptions& options,
                                      const std::atomic<bool>& cancel,
                                      const std::function<void(const LoadProgress&)>& progress = {});

// What the first timeline draws: every file loaded (imported first when foreign), its timeline rows, kernel
// categories and correlation index, ranks in ascending order; not analysed. Progress runs to two thirds.
std::shared_ptr<Session> load_session_timeline(const std::vector<std::string>& paths,
                                               const analysis::AnalysisOptions& options,
                                               const std::atomic<bool>& cancel,
                                               const std::function<void(const LoadProgress&)>& progress = {});

// The analyses of every rank (same order as Session::ranks) and of the job, and the launch details pending.
struct SessionAnalyses {
  std::vector<analysis::RankAnalysis> ranks;
  job::JobAnalysis job;
  std::vector<trace::KernelLaunchDetails> launch_details;  // per rank; empty where none were pending
};
// Computed from the session's models only, so the GUI thread may draw the session meanwhile; the last third
// of the progress. The launch details are read beside the analyses; a file that cannot give them opens
// without them (LoadedRank::launch_details_problem). Throws as load_session does.
SessionAnalyses analyse_session(const Session& session, const std::atomic<bool>& cancel,
                                const std::function<void(const LoadProgress&)>& progress = {});
// Stores them in the session (on the thread that draws it, and while no other reads its models' launch
// details) and marks it analysed.
void apply_analyses(Session& session, SessionAnalyses analyses);

}  // namespace gpuprof::gui
