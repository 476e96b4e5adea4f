#include "kineto_reader.hpp"

#include <rapidjson/error/en.h>
#include <rapidjson/reader.h>

#include <cstdlib>
#include <new>
#include <string_view>

#include "gpuprof/trace/input_limits.hpp"
#include "gpuprof/trace/trace_error.hpp"
#include "gzip_stream.hpp"
#include "kineto_time.hpp"

namespace gpuprof::importers {
namespace {

// RapidJSON holds each string whole on its stack before the handler sees it,
// and checks no allocation: a failed realloc was a crash, and a string of 4 GiB
// wrapped its 32-bit length to an empty one. This allocator for that stack
// refuses to grow it past what the longest accepted string needs (growth is by
// half again, so twice the limit), and throws where malloc fails; both unwind
// through the parser, whose stack keeps its old block.
struct JsonTooLarge {};

class BoundedStackAllocator {
 public:
  static const bool kNeedFree = true;
  static constexpr std::size_t kMaxBytes = 2 * kMaxStringBytes + 4096;

  void* Malloc(std::size_t size) { return size == 0 ? nullptr : checked(std::malloc(bounded(size))); }
  void* Realloc(void* old, std::size_t, std::size_t size) {
    if (size == 0) {
      std::free(old);
      return nullptr;
    }
    return checked(std::realloc(old, bounded(size)));
  }
  static void Free(void* block) { std::free(block); }

 private:
  static std::size_t bounded(std::size_t size) {
    if (size > kMaxBytes) throw JsonTooLarge{};
    return size;
  }
  static void* checked(void* block) {
    if (block == nullptr) throw std::bad_alloc();
    return block;
  }
};

using BoundedReader = rapidjson::GenericReader<rapidjson::UTF8<>, rapidjson::UTF8<>, BoundedStackAllocator>;

std::string string_limit_problem() {
  return "holds a JSON string longer than " + std::to_string(kMaxStringBytes >> 20) +
         " MiB (no Kineto trace needs one; refused)";
}

// Where in the document the parser is; the document nests at most a few levels
// deep in the parts we keep, everything else is skipped by depth alone.
enum class Section { none, events, distributed_info, device_properties, skipped };

// The keys of a trace event the reader keeps. Matched once per key, by length
// first, so a scalar is routed by a switch instead of string comparisons.
enum class EventField { other, ph, cat, name, pid, tid, ts, dur, args };

EventField event_field(std::string_view key) {
  switch (key.size()) {
    case 2:
      if (key == "ph") return EventField::ph;
      if (key == "ts") return EventField::ts;
      return EventField::other;
    case 3:
      if (key == "cat") return EventField::cat;
      if (key == "pid") return EventField::pid;
      if (key == "tid") return EventField::tid;
      if (key == "dur") return EventField::dur;
      return EventField::other;
    case 4:
      if (key == "name") return EventField::name;
      if (key == "args") return EventField::args;
      return EventField::other;
    default: return EventField::other;
  }
}

class KinetoHandler : public rapidjson::BaseReaderHandler<rapidjson::UTF8<>, KinetoHandler> {
 public:
  explicit KinetoHandler(KinetoEventConsumer& consumer) : consumer_(consumer) {}

  bool Null() { return scalar("null", false); }
  bool Bool(bool value) { return scalar(value ? "true" : "false", false); }
  bool RawNumber(const char* text, rapidjson::SizeType length, bool) {
    return within_limit(length) && scalar({text, length}, false);
  }
  bool String(const char* text, rapidjson::SizeType length, bool) {
    return within_limit(length) && scalar({text, length}, true);
  }
  bool Key(const char* text, rapidjson::SizeType length, bool) {
    if (!within_limit(length)) return false;
    const std::string_view key(text, length);
    if (depth_ == 1) {
      top_key_.assign(key);
    } else if (section_ == Section::events && depth_ == 3) {
      event_field_ = event_field(key);
    } else if (section_ == Section::events && depth_ == 4 && in_args_) {
      start_arg(key);
    } else if ((section_ == Section::distributed_info && depth_ == 2) ||
               (section_ == Section::device_properties && depth_ == 3)) {
      field_key_.assign(key);
    }
    return true;
  }
  bool StartObject() { return open(true); }
  bool EndObject(rapidjson::SizeType) { return close(); }
  bool StartArray() { return open(false); }
  bool EndArray(rapidjson::SizeType) { return close(); }

  KinetoHeader header;
  std::string problem;  // why the handler stopped the parse

 private:
  bool within_limit(rapidjson::SizeType length) {
    if (length <= kMaxStringBytes) return true;
    problem = string_limit_problem();
    return false;
  }

  bool open(bool is_object) {
    if (depth_ >= kMaxKinetoJsonDepth) {
      problem = "nests JSON deeper than " + std::to_string(kMaxKinetoJsonDepth) +
                " levels; a Kineto trace needs a handful (refused, not parsed further)";
      return false;
    }
    if (depth_ == 0 && !is_object) {
      problem = "is JSON but not a trace (the document is an array, not an object with traceEvents)";
      return false;
    }
    if (depth_ == 1) section_ = section_for(top_key_, is_object);
    if (section_ == Section::events) open_in_events(is_object);
    if (section_ == Section::device_properties && depth_ == 2) {
      // Only an object is a device; an array element of any other shape is ignored.
      device_open_ = is_object;
      if (is_object) header.devices.emplace_back();
    }
    ++depth_;
    return true;
  }

  bool close() {
    --depth_;
    if (section_ == Section::events) {
      if (depth_ == 2 && event_open_) consumer_.consume(event_);
      if (depth_ == 2) event_open_ = false;
      if (depth_ == 3) in_args_ = false;
      if (depth_ == 4) in_list_ = false;
      if (depth_ == 5) in_nested_ = false;
    }
    if (depth_ == 1) section_ = Section::none;
    return true;
  }

  Section section_for(const std::string& key, bool is_object) {
    if (key == "traceEvents" && !is_object) {
      header.saw_trace_events = true;
      return Section::events;
    }
    if (key == "distributedInfo" && is_object) {
      header.saw_distributed_info = true;
      return Section::distributed_info;
    }
    if (key == "deviceProperties" && !is_object) return Section::device_properties;
    return Section::skipped;
  }

  void open_in_events(bool is_object) {
    if (depth_ == 2) {
      event_open_ = is_object;
      if (is_object) event_.clear();
      else consumer_.malformed_element();
    } else if (depth_ == 3 && is_object && event_field_ == EventField::args) {
      in_args_ = true;
    } else if (depth_ == 4 && in_args_ && !is_object && event_.arg_count > 0) {
      in_list_ = true;
    } else if (depth_ == 5 && in_list_ && !is_object) {
      event_.args[event_.arg_count - 1].nested.emplace_back();
      in_nested_ = true;
    }
  }

  void start_arg(std::string_view key) {
    if (event_.arg_count == event_.args.size()) event_.args.emplace_back();
    KinetoArg& arg = event_.args[event_.arg_count++];
    arg.key.assign(key);
    arg.value.clear();
    arg.items.clear();
    arg.nested.clear();
  }

  bool scalar(std::string_view text, bool is_string) {
    if (depth_ == 0) {
      problem = "is JSON but not a trace (the document is a single value)";
      return false;
    }
    if (depth_ == 1) {
      header_scalar(text);
    } else if (section_ == Section::events) {
      event_scalar(text, is_string);
    } else if (section_ == Section::distributed_info && depth_ == 2) {
      distributed_scalar(text);
    } else if (section_ == Section::device_properties && depth_ == 3) {
      device_scalar(text);
    }
    return true;
  }

  void header_scalar(std::string_view text) {
    if (top_key_ == "schemaVersion") header.schema_version = std::string(text);
    else if (top_key_ == "displayTimeUnit") header.display_time_unit = std::string(text);
    else if (top_key_ == "baseTimeNanoseconds") header.base_time_ns = std::string(text);
    else if (top_key_ == "traceName") header.trace_name = std::string(text);
  }

  void event_scalar(std::string_view text, bool is_string) {
    if (depth_ == 2) {
      consumer_.malformed_element();
    } else if (depth_ == 3) {
      event_field_scalar(text, is_string);
    } else if (depth_ == 4 && in_args_ && event_.arg_count > 0) {
      event_.args[event_.arg_count - 1].value.set(text, is_string);
    } else if (depth_ == 5 && in_list_) {
      event_.args[event_.arg_count - 1].items.emplace_back(text);
    } else if (depth_ == 6 && in_nested_) {
      event_.args[event_.arg_count - 1].nested.back().emplace_back(text);
    }
  }

  void event_field_scalar(std::string_view text, bool is_string) {
    switch (event_field_) {
      case EventField::ph: return event_.ph.assign(text), void();
      case EventField::cat: return event_.cat.assign(text), void();
      case EventField::name: return event_.name.assign(text), void();
      case EventField::pid: return event_.pid.set(text, is_string);
      case EventField::tid: return event_.tid.set(text, is_string);
      case EventField::ts: return event_.ts.set(text, is_string);
      case EventField::dur: return event_.dur.set(text, is_string);
      case EventField::other:
      case EventField::args: return;
    }
  }

  void distributed_scalar(std::string_view text) {
    if (field_key_ == "rank") header.rank = std::string(text);
    else if (field_key_ == "world_size") header.world_size = std::string(text);
    else if (field_key_ == "backend") header.backend = std::string(text);
  }

  void device_scalar(std::string_view text) {
    // Scalars in a non-object element (e.g. [["id", 0]]) have no device to go to.
    if (!device_open_) return;
    trace::DeviceRow& device = header.devices.back();
    const auto number = integer_from_text(text);
    if (field_key_ == "name") device.name = std::string(text);
    if (!number) return;
    if (field_key_ == "id") device.id = static_cast<std::int32_t>(*number);
    else if (field_key_ == "totalGlobalMem") device.memory_bytes = *number;
    else if (field_key_ == "computeMajor") device.compute_major = static_cast<std::int32_t>(*number);
    else if (field_key_ == "computeMinor") device.compute_minor = static_cast<std::int32_t>(*number);
    else if (field_key_ == "numSms") device.sm_count = static_cast<std::int32_t>(*number);
  }

  KinetoEventConsumer& consumer_;
  int depth_ = 0;
  Section section_ = Section::none;
  bool event_open_ = false, in_args_ = false, in_list_ = false, in_nested_ = false, device_open_ = false;
  EventField event_field_ = EventField::other;
  std::string top_key_, field_key_;
  KinetoEvent event_;
};

}  // namespace

KinetoHeader read_kineto(const std::string& path, KinetoEventConsumer& consumer, std::size_t* bytes_read,
                         std::size_t buffer_bytes, std::function<void(std::int64_t)> on_file_bytes) {
  GzipFile file(path, buffer_bytes);
  file.report_file_bytes(std::move(on_file_bytes));
  GzipStream stream(file);
  KinetoHandler handler(consumer);
  BoundedReader reader;
  // RapidJSON's recursive parser (10 % faster than its iterative one) uses the
  // stack per nesting level, so a file nested a few hundred thousand levels deep
  // would overflow it; the handler refuses the level past kMaxKinetoJsonDepth in
  // StartObject/StartArray, which RapidJSON calls before it recurses, so the
  // recursion never goes deeper than that (a few hundred bytes of stack a level).
  constexpr unsigned kFlags = rapidjson::kParseNumbersAsStringsFlag | rapidjson::kParseNanAndInfFlag;
  rapidjson::ParseResult result;
  try {
    result = reader.Parse<kFlags>(stream, handler);
  } catch (const JsonTooLarge&) {
    throw TraceError::bad_input(path, string_limit_problem());
  } catch (const std::bad_alloc&) {
    throw TraceError::bad_input(path, "needs more memory than is available to parse");
  }
  if (bytes_read != nullptr) *bytes_read = stream.bytes_read();
  if (!handler.problem.empty()) throw TraceError::bad_input(path, handler.problem);
  if (result.IsError()) {
    if (stream.bytes_read() == 0 || result.Code() == rapidjson::kParseErrorDocumentEmpty) {
      throw TraceError::bad_input(path, "is empty (no JSON document)");
    }
    throw TraceError::bad_input(path, std::string("is not valid JSON: ") + rapidjson::GetParseError_En(result.Code()) +
                                          " at byte " + std::to_string(result.Offset()) + " of the uncompressed text");
  }
  if (!handler.header.saw_trace_events) {
    throw TraceError::bad_input(path, "is JSON but not a Kineto/PyTorch profiler trace (no traceEvents array)");
  }
  return std::move(handler.header);
}

}  // namespace gpuprof::importers
