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
  // The words alone ("slowest", "straggler", "slowest, straggler"): a rank's row label with the whole text
  // was cut in the label column (issue 39); the rank header's note, as wide as the timeline, has `text`.
  std::string label;
};

// For the rank at `index` of a session of two or more ranks; none for a lone rank.
RankMark rank_mark(const Session& session, std::size_t index);

}  // namespace gpuprof::gui
