#include "progress_line.hpp"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "gpuprof/units/units.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::cli {
namespace {

// At most ten drawings a second: a person cannot read more, and a terminal
// drawing a line per batch of rows would slow the work it reports.
constexpr double kDrawInterval = 0.1;

double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

std::string amount(std::int64_t value, std::string_view unit) {
  if (unit == "bytes") return units::format_bytes(value);
  return format_count(value) + " " + std::string(unit);
}

// Items are file names and run names from the user: no control character may reach the terminal.
std::string printable_item(std::string_view item) {
  std::string text(item);
  for (auto& c : text) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  }
  return text;
}

// Cut to the terminal's width, never inside a UTF-8 character: a wrapped line cannot be rewritten in place.
std::string fitted(std::string text, int columns) {
  const auto width = static_cast<std::size_t>(std::max(columns - 1, 10));
  std::size_t cut = 0, shown = 0;
  while (cut < text.size() && shown < width) {
    ++cut;
    while (cut < text.size() && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) ++cut;
    ++shown;
  }
  text.resize(cut);
  return text;
}

}  // namespace

TerminalFacts terminal_facts(std::FILE* stream) {
  TerminalFacts facts;
  if (stream == nullptr) return facts;
  const int descriptor = ::fileno(stream);
  facts.is_terminal = descriptor >= 0 && ::isatty(descriptor) != 0;
  winsize size{};
  if (facts.is_terminal && ::ioctl(descriptor, TIOCGWINSZ, &size) == 0 && size.ws_col > 0) facts.columns = size.ws_col;
  return facts;
}

std::string format_duration(double seconds) {
  const auto total = static_cast<std::int64_t>(std::llround(std::max(0.0, seconds)));
  if (total < 60) return fmt::format("{}s", total);
  if (total < 3600) return fmt::format("{}m {:02}s", total / 60, total % 60);
  return fmt::format("{}h {:02}m", total / 3600, (total % 3600) / 60);
}

std::string format_count(std::int64_t count) {
  const auto value = static_cast<double>(count);
  if (count < 1000) return fmt::format("{}", count);
  if (count < 1'000'000) return fmt::format("{:.1f} k", value / 1e3);
  if (count < 1'000'000'000) return fmt::format("{:.1f} M", value / 1e6);
  return fmt::format("{:.1f} G", value / 1e9);
}

ProgressLine::ProgressLine(std::FILE* stream, std::string command, bool quiet)
    : ProgressLine(stream, std::move(command), quiet, terminal_facts(stream), steady_seconds) {}

ProgressLine::ProgressLine(std::FILE* stream, std::string command, bool quiet, TerminalFacts terminal, Clock clock)
    : stream_(stream),
      command_(std::move(command)),
      active_(stream != nullptr && terminal.is_terminal && !quiet),
      columns_(terminal.columns),
      clock_(std::move(clock)) {}

ProgressLine::~ProgressLine() { clear(); }

progress::ProgressCallback ProgressLine::callback() {
  if (!active_) return {};
  return [this](const progress::ProgressUpdate& update) { this->update(update); };
}

std::string ProgressLine::text_of(const progress::ProgressUpdate& update, double now) {
  std::string text = command_ + ": " + std::string(update.stage);
  if (update.total > 0) {
    const double share = std::clamp(static_cast<double>(update.done) / static_cast<double>(update.total), 0.0, 1.0);
    text += fmt::format(" {:.0f} %", std::floor(100 * share));
  }
  text += " " + amount(update.done, update.unit);
  const double elapsed = now - stage_started_;
  if (elapsed > 0 && update.done > 0) {
    const double rate = static_cast<double>(update.done) / elapsed;
    text += ", " + amount(static_cast<std::int64_t>(rate), update.unit) + "/s";
    const double left = update.total > update.done ? static_cast<double>(update.total - update.done) / rate : 0;
    if (left >= 1) text += ", about " + format_duration(left) + " left";
  }
  if (!update.item.empty()) text += " (" + printable_item(update.item) + ")";
  return text;
}

void ProgressLine::update(const progress::ProgressUpdate& update) {
  if (!active_) return;
  const std::lock_guard lock(mutex_);
  const double now = clock_();
  // A new stage counts its rate from its own start; so does a new counter of the
  // same stage (the next rank's "load"), which starts again from fewer units.
  if (update.stage != stage_ || update.done < last_done_) stage_ = update.stage, stage_started_ = now;
  last_done_ = update.done;
  if (ever_drawn_ && now - last_draw_ < kDrawInterval) return;
  draw(text_of(update, now));
  last_draw_ = now, ever_drawn_ = true;
}

void ProgressLine::draw(const std::string& text) {
  fmt::print(stream_, "\r\033[K{}", fitted(text, columns_));
  std::fflush(stream_);
  drawn_ = true;
}

void ProgressLine::clear_locked() {
  if (!drawn_) return;
  fmt::print(stream_, "\r\033[K");
  std::fflush(stream_);
  drawn_ = false;
}

void ProgressLine::clear() {
  const std::lock_guard lock(mutex_);
  clear_locked();
}

void ProgressLine::note(std::string_view line) {
  if (stream_ == nullptr) return;
  const std::lock_guard lock(mutex_);
  clear_locked();
  fmt::print(stream_, "{}\n", printable(line));  // notes quote names and failures from other programs
  std::fflush(stream_);
}

}  // namespace gpuprof::cli
