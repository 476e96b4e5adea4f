#include "gpuprof/comparison/run_comparison.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <set>

#include "gpuprof/comparison/kernel_diff.hpp"
#include "gpuprof/comparison/step_terms.hpp"
#include "gpuprof/trace/records.hpp"

namespace gpuprof::comparison {
namespace {

double mean(std::int64_t sum, std::int64_t samples) {
  return samples > 0 ? static_cast<double>(sum) / static_cast<double>(samples) : 0.0;
}

// Samples per step of the whole job: the option, else meta `global_batch`,
// else meta `batch_size` summed over ranks (each process feeds its own batch).
void find_batch(const job::JobAnalysis& job, const std::optional<std::int64_t>& option, RunSide& side) {
  if (option) {
    side.batch = option, side.batch_source = "option";
    return;
  }
  std::int64_t per_rank_sum = 0;
  bool every_rank = !job.ranks.empty();
  for (const auto& rank : job.ranks) {
    if (rank.global_batch) {
      side.batch = rank.global_batch, side.batch_source = "meta global_batch";
      return;
    }
    if (rank.batch_size) per_rank_sum += *rank.batch_size;
    else every_rank = false;
  }
  if (every_rank) side.batch = per_rank_sum, side.batch_source = "meta batch_size x ranks";
}

std::string gap_cause_name(std::size_t slot) {
  if (slot == kUnattributedGapSlot) return "unattributed";
  auto name = std::string(analysis::to_string(static_cast<idle::IdleCause>(slot)));
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

// Slots with time in either run, so both sides list the same terms.
std::vector<std::size_t> used_slots(const auto& base, const auto& other) {
  std::vector<std::size_t> slots;
  for (std::size_t slot = 0; slot < base.size(); ++slot) {
    if (base[slot] != 0 || other[slot] != 0) slots.push_back(slot);
  }
  return slots;
}

struct TermLayout {
  std::vector<std::size_t> copy_kinds, gap_causes;
};

RunSide make_side(const job::JobAnalysis& job, const TermSums& sums, const std::optional<std::int64_t>& batch,
                  const TermLayout& layout) {
  RunSide side;
  for (const auto& rank : job.ranks) {
    side.inputs.push_back(rank.input);
    side.gpus += static_cast<std::int32_t>(rank.analysis.devices.size());
  }
  side.ranks = static_cast<std::int32_t>(job.ranks.size());
  side.samples = sums.samples;
  side.step_ns = mean(sums.period_ns, sums.samples);
  auto& terms = side.terms;
  terms.computation_ns = mean(sums.computation_ns, sums.samples);
  for (const auto kind : layout.copy_kinds) {
    terms.exposed_copy_ns.emplace_back(std::string(trace::to_string(static_cast<trace::CopyKind>(kind))),
                                       mean(sums.exposed_copy_ns[kind], sums.samples));
  }
  terms.exposed_comm_ns = mean(sums.exposed_comm_ns, sums.samples);
  terms.sync_wait_ns = mean(sums.sync_wait_ns, sums.samples);
  terms.batch_gap_ns = mean(sums.batch_gap_ns, sums.samples);
  for (const auto slot : layout.gap_causes) {
    terms.batch_gap_by_cause.emplace_back(gap_cause_name(slot), mean(sums.batch_gap_by_cause_ns[slot], sums.samples));
  }
  terms.other_ns = mean(sums.other_ns, sums.samples);
  find_batch(job, batch, side);
  if (side.batch && side.step_ns > 0) side.samples_per_second = static_cast<double>(*side.batch) * 1e9 / side.step_ns;
  return side;
}

std::vector<WaterfallTerm> waterfall(const StepTerms& base, const StepTerms& other) {
  std::vector<WaterfallTerm> terms;
  const auto add = [&](std::string name, double before, double after) {
    terms.push_back({std::move(name), before, after, after - before});
  };
  add("computation", base.computation_ns, other.computation_ns);
  for (std::size_t k = 0; k < base.exposed_copy_ns.size(); ++k) {
    add("exposed transfer " + base.exposed_copy_ns[k].first, base.exposed_copy_ns[k].second,
        other.exposed_copy_ns[k].second);
  }
  add("exposed communication", base.exposed_comm_ns, other.exposed_comm_ns);
  add("synchronization wait", base.sync_wait_ns, other.sync_wait_ns);
  if (base.batch_gap_by_cause.empty()) add("batch gaps", base.batch_gap_ns, other.batch_gap_ns);
  for (std::size_t k = 0; k < base.batch_gap_by_cause.size(); ++k) {
    add("batch gaps: " + base.batch_gap_by_cause[k].first, base.batch_gap_by_cause[k].second,
        other.batch_gap_by_cause[k].second);
  }
  add("other (idle inside steps)", base.other_ns, other.other_ns);
  return terms;
}

void add_speedup(RunComparison& result) {
  const auto& base = result.base;
  const auto& other = result.other;
  if (base.samples_per_second && other.samples_per_second && *base.samples_per_second > 0) {
    result.speedup = *other.samples_per_second / *base.samples_per_second;
    result.speedup_basis = "throughput";
  } else {
    result.speedup = other.step_ns > 0 ? base.step_ns / other.step_ns : 0.0;
    result.speedup_basis = "step time";
    result.assumptions.push_back("both runs process the same global batch per step: the traces do not say their "
                                 "batch sizes (give --base-batch/--other-batch), so speedup is the ratio of step "
                                 "times");
  }
  if (base.gpus > 0 && other.gpus > 0 && base.gpus != other.gpus) {
    result.scaling_efficiency = result.speedup / (static_cast<double>(other.gpus) / static_cast<double>(base.gpus));
  }
}

std::set<std::string> gpu_models(const job::JobAnalysis& job) {
  std::set<std::string> models;
  for (const auto& rank : job.ranks) models.insert(rank.gpu_models.begin(), rank.gpu_models.end());
  return models;
}

// Kernel and step times of two GPU models differ for reasons no waterfall term names.
void add_gpu_model_notice(const job::JobAnalysis& base, const job::JobAnalysis& other, RunComparison& result) {
  const auto base_models = gpu_models(base), other_models = gpu_models(other);
  if (base_models.empty() || other_models.empty() || base_models == other_models) return;
  const auto list = [](const std::set<std::string>& models) { return fmt::format("{}", fmt::join(models, ", ")); };
  result.notices.push_back(fmt::format("the runs ran on different GPU models (base: {}; other: {}): kernel and step "
                                       "times also differ by hardware",
                                       list(base_models), list(other_models)));
}

}  // namespace

double StepTerms::total() const {
  double sum = computation_ns + exposed_comm_ns + sync_wait_ns + batch_gap_ns + other_ns;
  for (const auto& [kind, value] : exposed_copy_ns) sum += value;
  return sum;
}

RunComparison compare_runs(const job::JobAnalysis& base, const job::JobAnalysis& other, const CompareOptions& options) {
  const auto base_sums = sum_step_terms(base), other_sums = sum_step_terms(other);
  const TermLayout layout{used_slots(base_sums.exposed_copy_ns, other_sums.exposed_copy_ns),
                          used_slots(base_sums.batch_gap_by_cause_ns, other_sums.batch_gap_by_cause_ns)};
  RunComparison result;
  result.base = make_side(base, base_sums, options.base_batch, layout);
  result.other = make_side(other, other_sums, options.other_batch, layout);
  result.delta_step_ns = result.other.step_ns - result.base.step_ns;
  result.waterfall = waterfall(result.base.terms, result.other.terms);
  add_speedup(result);
  result.kernels = diff_kernels(base, other, options.top_kernels);
  add_gpu_model_notice(base, other, result);
  for (const auto* job : {&base, &other}) {
    for (const auto& notice : job->notices) result.notices.push_back(notice);
  }
  for (const auto& [side, job] : {std::pair{"base", &base}, std::pair{"other", &other}}) {
    for (const auto& rank : job->ranks) {
      for (const auto& warning : rank.analysis.warnings) {
        result.warnings.push_back(fmt::format("{} rank {}: {}", side, rank.analysis.rank, warning));
      }
    }
  }
  result.full_names = options.full_names;
  return result;
}

}  // namespace gpuprof::comparison
