#pragma once

// The ranks' warnings and notices and the job's own, each said once: the same note on several ranks becomes one
// line naming the ranks, and notes that differ only in their numbers (the device of each rank) one line that
// lists the numbers. A job of 8 ranks then opens with its answer, not 8 copies of one sentence.

#include <cstdint>
#include <string>
#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// A report of more rank files than this names them after the tables, not above the answer.
inline constexpr std::size_t kListedRankFiles = 4;

struct GroupedNote {
  bool warning = false;
  std::string ranks;  // "ranks 0-7", "rank 3"; empty in a report of one rank and for the job's own notes
  std::string text;
};

std::vector<GroupedNote> grouped_notes(const ReportInput& input);

// "0-3, 5, 7": ascending ranks with runs shortened.
std::string rank_ranges(std::vector<std::int32_t> ranks);

}  // namespace gpuprof::report
