#include "gpuprof/gui/session.hpp"

#include <algorithm>
#include <filesystem>
#include <future>
#include <limits>

#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/progress/counted_loading.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::gui {
namespace {

constexpr int kStagesPerFile = 3;  // load (with import) and lay out; then analyse
// A stage's share of the bar: loading a big file moves it by the rows read, as
// the command line's progress line does (the same loader reports both).
constexpr int kUnitsPerStage = 1000;

std::string file_name(const std::string& path) { return std::filesystem::path(path).filename().string(); }

struct Stepper {
  const std::atomic<bool>& cancel;
  const std::function<void(const LoadProgress&)>& progress;
  int done = 0, total = 1;

  void next(std::string stage) {
    if (cancel.load()) throw LoadCancelled{};
    if (progress) progress({done * kUnitsPerStage, total * kUnitsPerStage, std::move(stage)});
    ++done;
  }
  // The stage announced last, moving with the work's own updates (an import's
  // bytes, a load's rows); empty when nobody watches.
  progress::ProgressCallback within(std::string stage) const {
    if (!progress) return {};
    return [this, stage = std::move(stage), base = (done - 1) * kUnitsPerStage](const progress::ProgressUpdate& update) {
      if (update.total <= 0) return;
      const auto share = std::clamp(static_cast<double>(update.done) / static_cast<double>(update.total), 0.0, 1.0);
      progress({base + static_cast<int>(share * kUnitsPerStage), total * kUnitsPerStage, stage});
    };
  }
};

// What the timeline draws of one file: the model, its rows, and the kernel categories (with the correlation
// index they need) that colour communication apart, made as the analyses make them.
std::unique_ptr<LoadedRank> load_rank(const std::string& path, std::size_t index,
                                      const analysis::AnalysisOptions& options, Stepper& stepper) {
  auto rank = std::make_unique<LoadedRank>();
  rank->source_path = path;
  const auto loading = "Loading " + file_name(path);
  stepper.next(loading);
  {
    // An imported copy only needs to live until the model is in memory.
    importers::TemporaryStore store;
    const auto trace = importers::open_as_trace(path, store, stepper.within("Importing " + file_name(path)));
    // An import filled the stage already; loading its copy after it is the short part.
    const auto shown = trace == path ? stepper.within(loading) : progress::ProgressCallback{};
    // No context or return code (the exporter shows them). The launch details, which the first timeline does
    // not draw, are read after it from a gpuprof file; an imported copy is gone by then.
    const bool imported = trace != path;
    const trace::LoadOptions load{.load_kernel_launch_details = imported, .load_contexts_and_return_codes = false};
    rank->model = importers::read_as_input(path, trace, [&] { return progress::load_counted(trace, load, shown); });
    rank->launch_details_pending = !imported && rank->model.kernels.size() > 0;
  }
  rank->model.path = path;
  // The rank the analyses will be given (meta, else the file's position), so the ranks sort before them.
  rank->analysis.rank = rank->model.rank().value_or(static_cast<std::int32_t>(index));
  rank->analysis.path = path;
  stepper.next("Laying out " + file_name(path));
  // The timeline reads only the model: built on the second core while the categories are.
  auto timeline = std::async(std::launch::async, [&model = rank->model] { return build_rank_timeline(model); });
  rank->correlations = std::make_unique<analysis::CorrelationIndex>(rank->model.api_calls);
  rank->name_categories =
      analysis::KernelClassifier(options.comm_patterns).classify_model(rank->model, *rank->correlations).categories;
  rank->timeline = timeline.get();
  return rank;
}

analysis::AnalysisOptions app_analysis_options(const analysis::AnalysisOptions& options) {
  // The app shows each idle interval's causes on hover, so it keeps them (reports need only their sums).
  auto with_intervals = options;
  with_intervals.keep_idle_intervals = true;
  with_intervals.host_summaries = false;  // the Host summaries dock computes them when first shown
  return with_intervals;
}

// Every rank's pending launch details, or why they could not be read: the trace opens without them.
std::vector<trace::KernelLaunchDetails> read_launch_details(const Session& session) {
  std::vector<trace::KernelLaunchDetails> result(session.ranks.size());
  for (std::size_t i = 0; i < session.ranks.size(); ++i) {
    const auto& rank = *session.ranks[i];
    if (!rank.launch_details_pending) continue;
    try {
      result[i] = trace::load_kernel_launch_details(rank.source_path, rank.model);
    } catch (const std::exception& error) {
      result[i].problem = error.what();
    }
  }
  return result;
}

}  // namespace

std::vector<std::string> Session::paths() const {
  std::vector<std::string> result;
  for (const auto& rank : ranks) result.push_back(rank->source_path);
  return result;
}

std::size_t Session::event_count() const {
  std::size_t count = 0;
  for (const auto& rank : ranks) count += rank->model.event_count();
  return count;
}

std::shared_ptr<Session> load_session_timeline(const std::vector<std::string>& paths,
                                               const analysis::AnalysisOptions& options,
                                               const std::atomic<bool>& cancel,
                                               const std::function<void(const LoadProgress&)>& progress) {
  if (paths.empty()) throw TraceError::bad_input("", "no trace files given");
  // A job folder opens as the trace files in it, as `gpuprof report FOLDER` reads them.
  const auto files = job::expand_inputs(paths);
  Stepper stepper{cancel, progress, 0, static_cast<int>(files.size()) * kStagesPerFile};
  auto session = std::make_shared<Session>();
  session->step_pattern = options.step_pattern;
  session->options = options;
  for (std::size_t i = 0; i < files.size(); ++i) session->ranks.push_back(load_rank(files[i], i, options, stepper));
  std::stable_sort(session->ranks.begin(), session->ranks.end(),
                   [](const auto& a, const auto& b) { return a->analysis.rank < b->analysis.rank; });
  session->start_ns = std::numeric_limits<std::int64_t>::max();
  session->end_ns = std::numeric_limits<std::int64_t>::min();
  for (const auto& rank : session->ranks) {
    session->start_ns = std::min(session->start_ns, rank->timeline.start_ns);
    session->end_ns = std::max(session->end_ns, rank->timeline.end_ns);
  }
  return session;
}

SessionAnalyses analyse_session(const Session& session, const std::atomic<bool>& cancel,
                                const std::function<void(const LoadProgress&)>& progress) {
  const int files = static_cast<int>(session.ranks.size());
  Stepper stepper{cancel, progress, files * (kStagesPerFile - 1), files * kStagesPerFile};
  const auto options = app_analysis_options(session.options);
  // On the second core while the first analyses run; joined before any exception leaves.
  auto launch_details = std::async(std::launch::async, [&session] { return read_launch_details(session); });
  std::vector<job::RankSummary> summaries;
  for (const auto& rank : session.ranks) {
    stepper.next("Analysing " + file_name(rank->source_path));
    // summarize_rank runs analyze_rank and keeps what cross-rank comparisons need. Its categories and
    // correlation index equal the ones the timeline was drawn with (same classifier, same model).
    auto summary = job::summarize_rank_parts(rank->model, options, rank->analysis.rank).summary;
    summary.input = rank->source_path;
    summary.analysis.path = rank->source_path;
    summaries.push_back(std::move(summary));
  }
  if (cancel.load()) throw LoadCancelled{};
  SessionAnalyses result;
  result.job = job::assemble_job(std::move(summaries));
  // The job gave idle time to peer_wait where a partner rank was late: the app shows the job's analyses.
  result.ranks.resize(session.ranks.size());
  for (std::size_t i = 0; i < session.ranks.size(); ++i) {
    for (const auto& summary : result.job.ranks) {
      if (summary.analysis.path == session.ranks[i]->source_path) result.ranks[i] = summary.analysis;
    }
  }
  result.launch_details = launch_details.get();
  if (progress) progress({stepper.total * kUnitsPerStage, stepper.total * kUnitsPerStage, "Done"});
  return result;
}

void apply_analyses(Session& session, SessionAnalyses analyses) {
  for (std::size_t i = 0; i < session.ranks.size() && i < analyses.ranks.size(); ++i) {
    session.ranks[i]->analysis = std::move(analyses.ranks[i]);
  }
  for (std::size_t i = 0; i < session.ranks.size() && i < analyses.launch_details.size(); ++i) {
    auto& rank = *session.ranks[i];
    if (!rank.launch_details_pending) continue;
    rank.launch_details_pending = false;
    auto& details = analyses.launch_details[i];
    if (details.problem.empty() && details.grid.size() == rank.model.kernels.size()) {
      rank.model.kernels.grid = std::move(details.grid);
      rank.model.kernels.block = std::move(details.block);
    } else {
      rank.launch_details_problem = details.problem.empty() ? "not read" : details.problem;
    }
  }
  session.job = std::move(analyses.job);
  session.analysed = true;
}

std::shared_ptr<Session> load_session(const std::vector<std::string>& paths, const analysis::AnalysisOptions& options,
                                      const std::atomic<bool>& cancel,
                                      const std::function<void(const LoadProgress&)>& progress) {
  auto session = load_session_timeline(paths, options, cancel, progress);
  apply_analyses(*session, analyse_session(*session, cancel, progress));
  return session;
}

}  // namespace gpuprof::gui
