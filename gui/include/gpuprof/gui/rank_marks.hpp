#pragma once

// What the timeline writes beside a rank so the rank that holds a job back is
// seen without scrolling: the slowest rank and the stragglers, in the job
// analysis's own words (`gpuprof report` of the same files says the same). Qt-free.

#include <cstddef>
#include <string>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

enum class RankMarkKind { none, slowest, straggler };

struct RankMark {
  RankMarkKind kind = RankMarkKind::none;
  std::string text;  // "slowest", "straggler, 7.50 ms late", "slowest; straggler, …"; empty for none
};

// For the rank at `index` of a session of two or more ranks; none for a lone rank.
RankMark rank_mark(const Session& session, std::size_t index);

}  // namespace gpuprof::gui
