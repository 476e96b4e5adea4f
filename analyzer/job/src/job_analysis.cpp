#include "gpuprof/job/job_analysis.hpp"

#include <algorithm>
#include <memory>

#include "gpuprof/importers/foreign_trace.hpp"
#include "gpuprof/job/job_inputs.hpp"
#include "gpuprof/job/rank_identity.hpp"
#include "gpuprof/analysis/analysis_options.hpp"
#include "gpuprof/progress/stage_counter.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "parallel_for.hpp"

namespace gpuprof::job {
namespace {

// Foreign files are imported first, since their rank is only known from the
// import. Each gets its own temporary folder so parallel imports never race
// for a file name.
std::vector<RankIdentity> identify(const std::vector<std::string>& paths, unsigned threads,
                                   std::vector<std::unique_ptr<importers::TemporaryStore>>& stores,
                                   const progress::ProgressCallback& progress) {
  std::vector<RankIdentity> identities(paths.size());
  stores.resize(paths.size());
  parallel_for(paths.size(), threads, [&](std::size_t index) {
    const trace::StageTimer timer("open");
    stores[index] = std::make_unique<importers::TemporaryStore>();
    const auto trace = importers::open_as_trace(paths[index], *stores[index], progress);
    identities[index] =
        importers::read_as_input(paths[index], trace, [&] { return read_identity(paths[index], trace); });
  });
  return identities;
}

std::vector<std::vector<std::int64_t>> window_sync_waits(const std::vector<RankSummary>& ranks,
                                                         const CollectiveWaits& waits) {
  std::vector<std::vector<std::int64_t>> result;
  for (std::size_t i = 0; i < ranks.size(); ++i) {
    auto& per_window = result.emplace_back();
    std::int32_t current_device = -1;
    analysis::IntervalSet set;
    for (const auto& window : ranks[i].windows) {
      if (per_window.empty() || window.device != current_device) {
        current_device = window.device;
        set = exposed_wait_set(ranks[i], waits[i], current_device);
      }
      per_window.push_back(analysis::length_within(set, window.start_ns, window.end_ns));
    }
  }
  return result;
}

}  // namespace

JobAnalysis assemble_job(std::vector<RankSummary> ranks) {
  std::sort(ranks.begin(), ranks.end(),
            [](const RankSummary& a, const RankSummary& b) { return a.analysis.rank < b.analysis.rank; });
  JobAnalysis job;
  job.ranks = std::move(ranks);
  job.clocks = align_clocks(job.ranks);
  job.notices = job.clocks.notices;
  const auto groups = match_collectives(job.ranks, job.clocks);
  const auto match_notices = collective_match_notices(job.ranks, groups, job.clocks);
  job.notices.insert(job.notices.end(), match_notices.begin(), match_notices.end());
  job.collective_waits = compute_collective_waits(job.ranks, groups);
  job.peer_waits = apply_peer_waits(job.ranks, groups, job.clocks);
  job.window_sync_wait_ns = window_sync_waits(job.ranks, job.collective_waits);
  job.stragglers = find_stragglers(job.ranks, job.clocks, job.collective_waits, groups, job.peer_waits);
  return job;
}

namespace {
// What a job reads of each rank: the analyses need no launch details, contexts or return codes.
trace::LoadOptions rank_load_options(progress::StageCounter& loading) {
  trace::LoadOptions load{.load_kernel_launch_details = false, .load_contexts_and_return_codes = false};
  if (loading.active()) load.on_rows = [&loading](std::int64_t rows) { loading.add(rows); };
  return load;
}

// Counted only for a progress line: every rank's rows, read before the first is loaded.
std::int64_t job_rows(const std::vector<RankIdentity>& identities, const JobOptions& options) {
  if (!options.progress) return 0;
  std::int64_t rows = 0;
  for (const auto& identity : identities) {
    rows += importers::read_as_input(identity.input, identity.trace_path,
                                     [&] { return trace::rows_to_load(identity.trace_path, {.load_kernel_launch_details = false}); });
  }
  return rows;
}

// Never destroyed: a static pointer keeps the model reachable (not a leak to
// LeakSanitizer) and no destructor runs at exit.
void keep_until_exit(trace::TraceModel&& model) {
  static auto* kept = new trace::TraceModel();
  *kept = std::move(model);
}
}  // namespace

JobAnalysis analyze_job(const std::vector<std::string>& inputs, const JobOptions& options) {
  analysis::check_analysis_options(options.analysis);
  const auto expanded = expand_inputs(inputs, options.skip_bad);
  const auto& paths = expanded.paths;
  std::vector<std::unique_ptr<importers::TemporaryStore>> stores;
  const auto identities = identify(paths, options.threads, stores, options.progress);
  const auto assignment = assign_ranks(identities, options.ranks);
  const auto& ranks = assignment.ranks;
  std::vector<RankSummary> summaries(paths.size());
  // Each task holds one trace model; it is freed before the task ends.
  const bool keep_model = options.keep_single_model_until_exit && paths.size() == 1;
  progress::StageCounter loading(options.progress, "load", job_rows(identities, options), "rows");
  if (paths.size() > 1) loading.set_item(std::to_string(paths.size()) + " traces");
  loading.add(0);
  const auto load_options = rank_load_options(loading);
  parallel_for(paths.size(), options.threads, [&](std::size_t index) {
    const auto& identity = identities[index];
    auto model = importers::read_as_input(identity.input, identity.trace_path, [&] {
      const trace::StageTimer timer("load");
      return trace::load_trace_model(identity.trace_path, load_options);
    });
    // An imported copy's problems (a trace with no GPU work) name the user's file, not the copy.
    summaries[index] = importers::read_as_input(identity.input, identity.trace_path, [&] {
      const trace::StageTimer timer("analyses");
      return summarize_rank(model, options.analysis, ranks[index]);
    });
    if (options.inspect_model) options.inspect_model(ranks[index], model);
    summaries[index].input = identities[index].input;
    summaries[index].analysis.path = identities[index].input;
    if (keep_model) keep_until_exit(std::move(model));
  });
  for (const auto& problem : expanded.problems) {
    summaries.front().analysis.notices.push_back("left out (--skip-bad): " + problem);
  }
  auto job = [&] {
    const trace::StageTimer timer("job: clocks, collectives, stragglers");
    return assemble_job(std::move(summaries));
  }();
  job.notices.insert(job.notices.begin(), assignment.notices.begin(), assignment.notices.end());
  return job;
}

}  // namespace gpuprof::job
