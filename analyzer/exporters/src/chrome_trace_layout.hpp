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

// The tracks one trace's rows are drawn on: its GPUs and their streams (GPU
// rows, GPU ranges, gaps) and its host processes and threads.
struct TraceTracks {
  std::set<std::int32_t> devices;
  std::set<std::pair<std::int32_t, std::int64_t>> device_streams;
  std::set<std::pair<std::int64_t, std::int64_t>> host_threads;
  std::set<std::int64_t> host_processes() const;
};
// `listed_devices`: also the devices the trace lists that did nothing (a lone
// trace shows them; a job of many ranks, each listing every GPU of its node, would
// drown in empty processes).
TraceTracks trace_tracks(const trace::TraceModel& model, const std::vector<trace::GapRow>& gaps,
                         bool listed_devices = true);

// Where one rank's tracks go in the file. A trace exported alone keeps its
// device ids and pids. In a job's file each rank's devices take the next job
// device numbers (its `device` args say them, so a re-import keeps the ranks'
// GPUs apart), and a rank whose host pid another rank already has is shifted.
struct RankPlacement {
  std::optional<std::int32_t> rank;  // named in process titles when known
  std::map<std::int32_t, std::int32_t> device_numbers;  // empty: device ids as they are
  std::int64_t device_pid_offset = 0;  // GPU pid = device number + offset
  std::int64_t host_pid_shift = 0;
  std::int64_t device_number(std::int32_t device) const;
  std::int64_t device_pid(std::int32_t device) const;
  Track device_track(std::int32_t device, std::int64_t stream) const { return {device_pid(device), stream}; }
};

// A trace exported alone: Kineto's pid = device id is kept unless it would
// merge a GPU into a host process.
RankPlacement single_trace_placement(const TraceTracks& tracks, std::optional<std::int32_t> rank);

// Which Chrome trace process and thread each row is drawn on, and the metadata
// events naming them: one process per GPU ("rank 0 · GPU 1: NVIDIA H100") with a
// thread per stream, and one process per host process with a thread per OS thread.
// Host processes keep their pid and tid because the Kineto importer reads them back;
// GPUs take their device id as pid, as Kineto does, unless a host pid has it.
class ChromeTraceLayout {
 public:
  ChromeTraceLayout(const trace::TraceModel& model, TraceTracks tracks, RankPlacement placement);

  Track device_track(std::int32_t device, std::int64_t stream) const {
    return placement_.device_track(device, stream);
  }
  Track device_process(std::int32_t device) const { return {placement_.device_pid(device), 0}; }
  // The `device` arg of a GPU row: a kUnknown32 device stays unknown.
  std::int64_t device_number(std::int32_t device) const { return placement_.device_number(device); }
  Track host_track(std::int64_t process_id, std::int64_t thread_id) const;

  // Metadata events, with `first_sort_index` for the first process; returns the next free index.
  std::int64_t write_metadata(EventWriter& writer, std::int64_t first_sort_index = 0) const;

 private:
  std::string rank_prefix() const;
  std::string device_title(std::int32_t device) const;

  const trace::TraceModel& model_;
  TraceTracks tracks_;
  RankPlacement placement_;
};

}  // namespace gpuprof::exporters
