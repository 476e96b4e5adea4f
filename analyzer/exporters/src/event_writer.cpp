#include "event_writer.hpp"

#include <charconv>
#include <cstdlib>

#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::exporters {

using trace::kUnknown;

// Names come from trace files; RapidJSON escapes control characters but copies
// invalid UTF-8 as it is, which strict JSON readers reject.
void EventWriter::key(std::string_view text) {
  if (!is_valid_utf8(text)) {
    const auto clean = valid_utf8(text);
    json_.Key(clean.data(), static_cast<rapidjson::SizeType>(clean.size()));
    return;
  }
  json_.Key(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void EventWriter::string(std::string_view text) {
  if (!is_valid_utf8(text)) {
    const auto clean = valid_utf8(text);
    json_.String(clean.data(), static_cast<rapidjson::SizeType>(clean.size()));
    return;
  }
  json_.String(text.data(), static_cast<rapidjson::SizeType>(text.size()));
}

void EventWriter::microseconds(std::int64_t ns) {
  // Written as text: a double would round large timestamps.
  char text[32];
  char* end = text;
  const std::uint64_t magnitude = ns < 0 ? 0 - static_cast<std::uint64_t>(ns) : static_cast<std::uint64_t>(ns);
  if (ns < 0) *end++ = '-';
  end = std::to_chars(end, text + sizeof text, magnitude / 1000).ptr;
  const auto fraction = static_cast<unsigned>(magnitude % 1000);
  *end++ = '.';
  *end++ = static_cast<char>('0' + fraction / 100);
  *end++ = static_cast<char>('0' + fraction / 10 % 10);
  *end++ = static_cast<char>('0' + fraction % 10);
  json_.RawValue(text, static_cast<std::size_t>(end - text), rapidjson::kNumberType);
}

void EventWriter::time(std::int64_t ns) { microseconds(ns - base_ns_); }
void EventWriter::duration(std::int64_t ns) { microseconds(ns); }

void EventWriter::id(std::int64_t value) {
  if (value == kUnknown) {
    string("unknown");
  } else {
    json_.Int64(value);
  }
}

void EventWriter::number_arg(std::string_view name, std::int64_t value) {
  if (value == kUnknown || value == trace::kUnknown32) return;
  key(name);
  json_.Int64(value);
}

void EventWriter::correlation_arg(std::int64_t correlation) {
  if (correlation == kUnknown) return;
  number_arg("correlation", correlation + correlation_offset_);
}

void EventWriter::string_arg(std::string_view name, std::string_view value) {
  key(name);
  string(value);
}

void EventWriter::begin_event(std::string_view phase, std::string_view category, std::string_view name, Track track,
                              std::int64_t at_ns) {
  json_.StartObject();
  string_arg("ph", phase);
  if (!category.empty()) string_arg("cat", category);
  string_arg("name", name);
  key("pid");
  id(track.pid);
  key("tid");
  id(track.tid);
  key("ts");
  time(at_ns);
}

void EventWriter::end_event() {
  json_.EndObject();
  ++events_;
}

// Rows between two progress counts: rare enough to cost nothing, frequent enough for ten updates a second.
constexpr std::int64_t kRowsPerReport = 16384;

void EventWriter::flush_progress() {
  if (rows_ != nullptr && unreported_rows_ > 0) rows_->add(unreported_rows_);
  unreported_rows_ = 0;
}

void EventWriter::begin_complete(std::string_view category, std::string_view name, Track track,
                                 std::int64_t start_ns, std::int64_t end_ns) {
  if (rows_ != nullptr && ++unreported_rows_ == kRowsPerReport) flush_progress();
  begin_event("X", category, name, track, start_ns);
  key("dur");
  duration(end_ns - start_ns);
  key("args");
  json_.StartObject();
}

void EventWriter::end_with_args() {
  json_.EndObject();
  end_event();
}

}  // namespace gpuprof::exporters
