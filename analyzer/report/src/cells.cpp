#include "gpuprof/report/cells.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>

#include "gpuprof/units/units.hpp"

namespace gpuprof::report {
namespace {
constexpr std::string_view kNotANumber = "n/a";
}  // namespace

Cell integer_cell(std::int64_t value) { return {std::to_string(value), std::to_string(value), true}; }
Cell duration_cell(std::int64_t ns) { return {units::format_duration(ns), std::to_string(ns), true}; }
// A figure that is not finite (a ratio of nothing) says so, as JSON's null does: never a made-up 0 or INT64_MIN.
Cell duration_cell(double ns) {
  if (!std::isfinite(ns)) return {std::string(kNotANumber), "", true};
  return duration_cell(static_cast<std::int64_t>(ns + (ns < 0 ? -0.5 : 0.5)));
}
Cell bytes_cell(std::int64_t value) { return {units::format_bytes(value), std::to_string(value), true}; }
Cell number_cell(double value, int decimals) {
  if (!std::isfinite(value)) return {std::string(kNotANumber), "", true};
  const auto text = fmt::format("{:.{}f}", value, decimals);
  return {text, text, true};
}
Cell count_cell(double value) {
  auto cell = number_cell(value, 2);
  if (cell.text.ends_with(".00")) cell.text.resize(cell.text.size() - 3);
  return cell;
}
Cell percent_cell(double share) { return number_cell(100.0 * share, 1); }
Cell text_cell(std::string value) { return {value, value, false}; }
Cell time_point_cell(std::int64_t ns, std::int64_t origin_ns) {
  std::int64_t since = 0;
  // Timestamps come from files: a difference that does not fit is shown at the limit, not wrapped.
  if (__builtin_sub_overflow(ns, origin_ns, &since)) since = ns < origin_ns ? INT64_MIN : INT64_MAX;
  return {units::format_duration(since), std::to_string(ns), true};
}

Cell time_point_cell(const TableView& view, std::int64_t ns, std::int64_t origin_ns) {
  return view.relative_times ? time_point_cell(ns, origin_ns) : integer_cell(ns);
}

}  // namespace gpuprof::report
