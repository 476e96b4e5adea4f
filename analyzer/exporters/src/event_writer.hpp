#pragma once

#include <rapidjson/writer.h>

#include <cstdint>
#include <string_view>

#include "gpuprof/progress/stage_counter.hpp"
#include "json_output_file.hpp"

namespace gpuprof::exporters {

// Where an event is drawn: a Chrome trace process and thread. kUnknown ids are
// written as the string "unknown", which the Kineto importer reads as unknown
// (a number would come back as a made-up id).
struct Track {
  std::int64_t pid = 0, tid = 0;
};

// The JSON writer plus the fields every trace event shares. Times are written
// as microseconds with three decimals relative to a base, which keeps every
// nanosecond and is what Kineto's baseTimeNanoseconds means.
class EventWriter {
 public:
  EventWriter(JsonOutputFile& file, std::int64_t base_ns) : json_(file), base_ns_(base_ns) {}

  rapidjson::Writer<JsonOutputFile>& json() { return json_; }
  std::int64_t events() const { return events_; }

  // The instant written as time 0. A rank of a job moves it by its clock offset, so
  // that its own timestamps come out on the reference rank's clock.
  std::int64_t origin_ns() const { return base_ns_; }
  void set_origin(std::int64_t ns) { base_ns_ = ns; }
  // Added to every correlation id written: a job's ranks number their launches
  // independently, and one file needs them apart.
  void set_correlation_offset(std::int64_t offset) { correlation_offset_ = offset; }
  // Counts the trace's rows written (one complete event each) for a progress
  // line, in batches; nullptr: not counted. flush_progress hands on the rest.
  void count_rows_in(progress::StageCounter* rows) { rows_ = rows; }
  void flush_progress();

  // {"ph":"X","cat":..,"name":..,"pid":..,"tid":..,"ts":..,"dur":..,"args":{  (closed by end_with_args)
  void begin_complete(std::string_view category, std::string_view name, Track track, std::int64_t start_ns,
                      std::int64_t end_ns);
  void end_with_args();

  // {"ph":..,"name":..,"pid":..,"tid":..,"ts":..  (closed by end_event); no category when empty.
  void begin_event(std::string_view phase, std::string_view category, std::string_view name, Track track,
                   std::int64_t at_ns);
  void end_event();

  void key(std::string_view text);
  void string(std::string_view text);
  void time(std::int64_t ns);      // microseconds since the base
  void duration(std::int64_t ns);  // microseconds
  void id(std::int64_t value);     // a number, or "unknown" for kUnknown
  // Args that are unknown are left out rather than written as a sentinel.
  void number_arg(std::string_view name, std::int64_t value);
  void string_arg(std::string_view name, std::string_view value);
  void correlation_arg(std::int64_t correlation);  // "correlation", offset; left out when unknown

 private:
  void microseconds(std::int64_t ns);

  rapidjson::Writer<JsonOutputFile> json_;
  std::int64_t base_ns_ = 0;
  std::int64_t events_ = 0;
  std::int64_t correlation_offset_ = 0;
  progress::StageCounter* rows_ = nullptr;
  std::int64_t unreported_rows_ = 0;
};

}  // namespace gpuprof::exporters
