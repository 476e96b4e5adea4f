#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "event_writer.hpp"
#include "gpuprof/trace/records.hpp"
#include "gpuprof/trace/trace_model.hpp"

namespace gpuprof::exporters {

// Which Chrome trace process and thread each row is drawn on, and the metadata
// events naming them: one process per GPU ("rank 0 · GPU 1: NVIDIA H100") with a
// thread per stream, and one process per host process with a thread per OS thread.
// Host processes keep their pid and tid because the Kineto importer reads them back;
// GPUs take their device id as pid, as Kineto does, unless a host pid has it.
class ChromeTraceLayout {
 public:
  ChromeTraceLayout(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps);

  Track device_track(std::int32_t device, std::int64_t stream) const;
  Track device_process(std::int32_t device) const { return {device_pid(device), 0}; }
  static Track host_track(std::int64_t process_id, std::int64_t thread_id) { return {process_id, thread_id}; }

  void write_metadata(EventWriter& writer, std::int64_t base_ns) const;

 private:
  std::int64_t device_pid(std::int32_t device) const;
  std::string rank_prefix() const;
  std::string device_title(std::int32_t device) const;
  void add_host(std::int64_t process_id, std::int64_t thread_id);

  const trace::TraceModel& model_;
  std::optional<std::int32_t> rank_;
  std::int64_t device_pid_offset_ = 0;
  std::set<std::int32_t> devices_;
  std::set<std::pair<std::int32_t, std::int64_t>> device_streams_;
  std::set<std::pair<std::int64_t, std::int64_t>> host_threads_;
};

}  // namespace gpuprof::exporters
