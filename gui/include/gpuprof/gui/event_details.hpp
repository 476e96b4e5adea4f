#pragma once

// What the timeline says about one event: tooltip lines and the details
// panel, including the API call that launched a GPU activity. Qt-free.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "gpuprof/gui/session.hpp"

namespace gpuprof::gui {

struct EventRef {
  std::size_t rank = 0;           // index into Session::ranks
  LaneKind kind = LaneKind::kernels;
  std::size_t row = 0;            // row of the model's table
  friend bool operator==(const EventRef&, const EventRef&) = default;
};

struct EventSpan {
  std::int64_t start_ns = 0, end_ns = 0;
};

std::string event_name(const LoadedRank& rank, const EventRef& ref);
EventSpan event_span(const LoadedRank& rank, const EventRef& ref);
// Correlation id, or trace::kUnknown.
std::int64_t event_correlation(const LoadedRank& rank, const EventRef& ref);

// The API call that launched a GPU activity (through its correlation id), if known.
std::optional<EventRef> launching_call(const LoadedRank& rank, const EventRef& ref);

using Field = std::pair<std::string, std::string>;
// Name, duration, stream, bytes and GB/s for copies, the launching call, ...
std::vector<Field> event_fields(const LoadedRank& rank, const EventRef& ref);
// Fields as "label: value" lines, for tooltips and the details panel.
std::string describe_event(const LoadedRank& rank, const EventRef& ref);

}  // namespace gpuprof::gui
