#pragma once

// One trace event and the top-level fields of a Kineto JSON trace, as the SAX
// reader collects them. Numbers are kept as their JSON text so timestamps can
// be converted without going through a double.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::importers {

struct JsonScalar {
  std::string text;
  bool is_string = false;
  bool present = false;

  void set(std::string_view value, bool string) {
    text.assign(value);
    is_string = string;
    present = true;
  }
  void clear() {
    text.clear();
    present = false;
  }
};

struct KinetoArg {
  std::string key;
  JsonScalar value;
  std::vector<std::string> items;  // elements of a flat array value, e.g. grid [8, 1, 1]
  // Elements of an array of flat arrays, e.g. "Input Dims" [[394241], []]: the tensors' shapes.
  std::vector<std::vector<std::string>> nested;
};

struct KinetoEvent {
  std::string ph, cat, name;
  JsonScalar pid, tid, ts, dur;
  // Slots are reused from event to event so parsing does not allocate per event.
  std::vector<KinetoArg> args;
  std::size_t arg_count = 0;

  void clear() {
    ph.clear(), cat.clear(), name.clear();
    pid.clear(), tid.clear(), ts.clear(), dur.clear();
    arg_count = 0;
  }
  const KinetoArg* arg(std::string_view key) const {
    for (std::size_t i = 0; i < arg_count; ++i) {
      if (args[i].key == key) return &args[i];
    }
    return nullptr;
  }
};

struct KinetoHeader {
  std::optional<std::string> schema_version, display_time_unit, trace_name, backend;
  std::optional<std::string> base_time_ns;  // JSON text of baseTimeNanoseconds
  std::optional<std::string> rank, world_size;
  bool saw_trace_events = false;
  bool saw_distributed_info = false;
  std::vector<trace::DeviceRow> devices;
};

class KinetoEventConsumer {
 public:
  virtual ~KinetoEventConsumer() = default;
  virtual void consume(const KinetoEvent& event) = 0;
  // An element of traceEvents that is not an object.
  virtual void malformed_element() = 0;
};

}  // namespace gpuprof::importers
