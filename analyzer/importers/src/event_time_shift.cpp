#include "event_time_shift.hpp"

#include <string>

#include "gpuprof/trace/trace_writer.hpp"

namespace gpuprof::importers {

void shift_event_times(sqlite::Database& trace, std::int64_t shift_ns, ShiftedRows rows) {
  const std::string shift = std::to_string(shift_ns);
  const bool every_event = rows == ShiftedRows::every_event;
  for (const std::string table : {"kernels", "memcpys", "memsets", "api_calls", "syncs", "ranges"}) {
    // Host-side rows keep the host clock when only the GPU side moves.
    if (!every_event && (table == "api_calls" || table == "syncs")) continue;
    const std::string where = !every_event && table == "ranges" ? " WHERE on_gpu = 1" : "";
    trace.execute("UPDATE " + table + " SET start_ns = start_ns + " + shift + ", end_ns = end_ns + " + shift + where);
  }
  // Memory events and thread states are stamped on the host clock: only a new time base moves them.
  if (every_event && trace.has_table("memory_events")) {
    trace.execute("UPDATE memory_events SET time_ns = time_ns + " + shift);
  }
  if (every_event && trace.has_table("thread_states")) {
    trace.execute("UPDATE thread_states SET start_ns = start_ns + " + shift + ", end_ns = end_ns + " + shift);
  }
  trace::rewrite_event_chunks(trace);
}

}  // namespace gpuprof::importers
