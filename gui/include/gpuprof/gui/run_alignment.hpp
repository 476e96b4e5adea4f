#pragma once

// Where the timeline of a run is anchored when two runs are shown together:
// the start of its first steady step, so that steps line up. Qt-free.

#include <cstdint>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

// First steady step start; the first step when all are warm-up; the trace start without steps.
std::int64_t alignment_anchor(const Session& session);

// Mean steady step period over every rank and device (analysis::mean_step_period_ns); 0 without steps.
double mean_steady_step_ns(const Session& session);

}  // namespace gpuprof::gui
