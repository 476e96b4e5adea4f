#pragma once

// A stretch of idle time the user clicked on the timeline (a batch gap band,
// or one idle interval inside a step) and what the details pane says about it:
// its causes with their coverage (the analyzer's idle attribution) and what
// the host was doing meanwhile (idle::host_activity_during). Qt-free.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

struct IdleSelection {
  std::size_t rank = 0;  // index into Session::ranks
  std::int32_t device = 0;
  std::int64_t start_ns = 0, end_ns = 0;  // on the rank's own clock
  bool gap = false;                       // the whole batch gap, else one idle interval
  friend bool operator==(const IdleSelection&, const IdleSelection&) = default;
};

// At time `t_ns` (the rank's clock) on `device`: its batch gap, else the idle interval there, else nothing.
std::optional<IdleSelection> idle_selection_at(const Session& session, std::size_t rank, std::int32_t device,
                                               std::int64_t t_ns);

// Where, the gap's or interval's causes and coverage, then the host activity under it, one item a line.
std::string describe_idle_selection(const Session& session, const IdleSelection& selection);

}  // namespace gpuprof::gui
