#pragma once

// A training job from its rank files: identify ranks, analyse them one at a
// time (a few in parallel) keeping only summaries, align clocks, find stragglers.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/job/clock_alignment.hpp"
#include "gpuprof/job/collective_waits.hpp"
#include "gpuprof/job/peer_waits.hpp"
#include "gpuprof/job/rank_summary.hpp"
#include "gpuprof/job/stragglers.hpp"
#include "gpuprof/progress/progress.hpp"

namespace gpuprof::job {

struct JobOptions {
  analysis::AnalysisOptions analysis;
  unsigned threads = 2;  // ranks analysed at once; memory grows with this, not with the rank count
  std::vector<std::int32_t> ranks;  // --ranks: one per trace file, in order; empty: from meta or position
  // For a process about to exit (the CLI): a job of one trace leaves its model
  // allocated, since freeing hundreds of MiB of columns page by page costs time
  // the OS spends anyway at exit. The model stays reachable from a static, so
  // leak checkers do not report it. Off everywhere else (tests, the app).
  bool keep_single_model_until_exit = false;
  // --skip-bad: damaged trace files are left out, each named in a notice of the
  // first rank left (so that text and JSON say so even for a job of one rank).
  bool skip_bad = false;
  // Called once per rank with its trace model while the analysis holds it (from
  // the analysing threads, so it must be thread-safe): for callers that need one
  // more fact of every rank without loading each trace a second time.
  std::function<void(std::int32_t rank, const trace::TraceModel& model)> inspect_model;
  // Stage "load": rows read of every rank's trace (of rows_to_load of them all),
  // for a progress line. Empty: nothing is counted.
  progress::ProgressCallback progress;
};

struct JobAnalysis {
  std::vector<RankSummary> ranks;  // ascending rank
  ClockAlignment clocks;
  CollectiveWaits collective_waits;  // parallel to ranks[i].collectives
  // Idle pieces given to peer_wait because a partner device or rank was late (already in the ranks' idle tallies).
  std::vector<PeerWaitPiece> peer_waits;
  // Exposed collective wait per window, parallel to ranks[i].windows.
  std::vector<std::vector<std::int64_t>> window_sync_wait_ns;
  StragglerReport stragglers;
  std::vector<std::string> notices;  // job-level (per-rank notices live in each analysis)
};

// `inputs`: trace files (gpuprof or foreign, imported on the fly) and folders.
// Throws TraceError::bad_input before any analysis for missing files, empty
// folders, duplicate ranks or files of different jobs. Ranks: see assign_ranks;
// ranks not read from the files are named in `notices`.
JobAnalysis analyze_job(const std::vector<std::string>& inputs, const JobOptions& options);

// Clock alignment, waits, peer waits and stragglers from summaries already made (tests and
// callers that built RankSummary values themselves). `ranks` need not be sorted.
JobAnalysis assemble_job(std::vector<RankSummary> ranks);

}  // namespace gpuprof::job
