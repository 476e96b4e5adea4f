#pragma once

// What to try first, from the causes the GPUs idle for (as nsys's expert rules suggest fixes): one line per
// cause that holds a large share of the idle time, each saying how much time it concerns. For peer_wait the
// advice is the straggler's own cause: the others wait because it is late.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/report/report_summary.hpp"

namespace gpuprof::report {

struct Advice {
  idle::IdleCause cause = idle::IdleCause::unrecorded;  // the idle label it answers
  std::int64_t idle_ns = 0;  // idle time with that label over the summary's windows (steps and batch gaps)
  double per_step_ns = 0;    // the same per steady step period (0 without steps)
  double share = 0;          // of all idle time in the windows
  std::optional<std::int32_t> rank;            // peer_wait: the rank the others wait for
  idle::IdleCause rank_cause = idle::IdleCause::unrecorded;  // peer_wait: why that rank is late
  std::string text;                            // what to try, in plain words
};

// A cause gets advice from this share of the idle time on; at most kMostAdvice lines, largest first. Where the
// GPUs idle less than kAdviceIdleShare of the windows, the time is in the kernels and no cause gets advice.
inline constexpr double kAdviceShare = 0.10;
inline constexpr double kAdviceIdleShare = 0.05;
inline constexpr std::size_t kMostAdvice = 3;

std::vector<Advice> advise(const ReportSummary& summary);
// Idle time inside steps and in batch gaps as a share of the windows.
double idle_share(const PeriodSummary& period);

}  // namespace gpuprof::report
