#include "nsys_sched.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "nsys_global_id.hpp"
#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

// One switch of a thread onto or off a CPU.
struct Switch {
  std::int64_t global_tid = 0, time_ns = 0;
  bool in = false;
  std::optional<std::int64_t> cpu, os_state, block_reason;
};

// Names of an nsys enum table (id → name) as the export gives them, interned when first used. The
// export's own "Unknown" says nothing, so it is stored as unknown (NULL).
class EnumNames {
 public:
  EnumNames(sqlite::Database& database, const std::string& table, StatId unknown_stat) : unknown_stat_(unknown_stat) {
    if (!database.has_table(table) || !has_column(database, table, "id") || !has_column(database, table, "name")) return;
    sqlite::Statement query(database, "SELECT id, name FROM " + table + " WHERE id IS NOT NULL AND name IS NOT NULL");
    while (query.step()) names_[query.column_int(0)] = query.column_text(1);
  }

  std::optional<trace::StringId> name(std::optional<std::int64_t> value, ImportSink& sink) {
    if (!value) return std::nullopt;
    const auto found = names_.find(*value);
    if (found == names_.end()) {
      sink.count(unknown_stat_, Severity::warning, 1,
                 "SCHED_EVENTS values outside the export's enum table (stored as unknown)");
      return std::nullopt;
    }
    if (found->second == "Unknown") return std::nullopt;
    if (const auto id = ids_.find(*value); id != ids_.end()) return id->second;
    return ids_[*value] = sink.intern(found->second);
  }

 private:
  StatId unknown_stat_;
  std::map<std::int64_t, std::string> names_;
  std::map<std::int64_t, trace::StringId> ids_;
};

void count_bad(ImportSink& sink, const char* column) {
  sink.count({StatId::import_nsys_sched_bad_row, column}, Severity::warning, 1,
             "SCHED_EVENTS rows left out: the column is NULL or out of range");
}

std::string optional_column(sqlite::Database& database, const char* column) {
  return has_column(database, kNsysSchedTable, column) ? column : std::string("NULL");
}

// Every usable switch, in the table's order; the others counted.
std::vector<Switch> read_switches(sqlite::Database& database, ImportSink& sink) {
  sqlite::Statement query(database, "SELECT start, isSchedIn, globalTid, " + optional_column(database, "cpu") + ", " +
                                        optional_column(database, "threadState") + ", " +
                                        optional_column(database, "threadBlock") + " FROM " + kNsysSchedTable);
  std::vector<Switch> switches;
  ForeignRow row;
  while (query.step()) {
    row.fetch(query.raw());
    if (row.is_null(0) || row.integer(0) < 0) {
      count_bad(sink, "start");
    } else if (row.is_null(1)) {
      count_bad(sink, "isSchedIn");
    } else if (row.is_null(2)) {
      count_bad(sink, "globalTid");
    } else {
      switches.push_back({row.integer(2), row.integer(0), row.integer(1) != 0, row.optional(3), row.optional(4),
                          row.optional(5)});
    }
  }
  return switches;
}

// Sorts by (thread, time), keeping the table's order for equal times, and counts the switches that
// came earlier than one before them of the same thread.
void sort_by_thread_time(std::vector<Switch>& switches, ImportSink& sink) {
  std::unordered_map<std::int64_t, std::int64_t> latest;
  std::int64_t out_of_order = 0;
  for (const auto& entry : switches) {
    auto [found, inserted] = latest.try_emplace(entry.global_tid, entry.time_ns);
    if (!inserted && entry.time_ns < found->second) ++out_of_order;
    found->second = std::max(found->second, entry.time_ns);
  }
  if (out_of_order > 0) {
    sink.count(StatId::import_nsys_sched_out_of_order, Severity::info, out_of_order,
               "SCHED_EVENTS rows earlier than a previous switch of their thread: sorted by time, none lost");
  }
  std::stable_sort(switches.begin(), switches.end(), [](const Switch& a, const Switch& b) {
    return std::pair(a.global_tid, a.time_ns) < std::pair(b.global_tid, b.time_ns);
  });
}

}  // namespace

void read_nsys_thread_states(sqlite::Database& database, ImportSink& sink) {
  for (const char* column : {"start", "isSchedIn", "globalTid"}) {
    if (!has_column(database, kNsysSchedTable, column)) {
      sink.count(StatId::import_nsys_sched_table_unreadable, Severity::warning, 1,
                 "SCHED_EVENTS lacks a column gpuprof reads; no thread state imported");
      return;
    }
  }
  auto switches = read_switches(database, sink);
  sort_by_thread_time(switches, sink);
  EnumNames os_states(database, "ENUM_SAMPLING_THREAD_STATE", StatId::import_nsys_sched_unknown_state);
  EnumNames block_reasons(database, "ENUM_SCHEDULING_THREAD_BLOCK", StatId::import_nsys_sched_unknown_block_reason);
  for (std::size_t i = 0; i + 1 < switches.size(); ++i) {
    const auto& from = switches[i];
    const auto& to = switches[i + 1];
    if (to.global_tid != from.global_tid || to.time_ns == from.time_ns) continue;
    if (to.in == from.in) {
      sink.count(StatId::import_nsys_sched_unpaired, Severity::warning, 1,
                 "two switches of a thread in a row the same way (one missing): its state between them is unknown");
      continue;
    }
    trace::ThreadStateRow row;
    row.process_id = nsys_process_of(from.global_tid);
    row.thread_id = nsys_thread_of(from.global_tid);
    row.start_ns = from.time_ns;
    row.end_ns = to.time_ns;
    row.state = from.in ? trace::ThreadRunState::running : trace::ThreadRunState::not_running;
    row.cpu = from.cpu;
    // The switch out says why the thread left the CPU.
    if (!from.in) row.os_state = os_states.name(from.os_state, sink);
    if (!from.in) row.block_reason = block_reasons.name(from.block_reason, sink);
    sink.add(row);
  }
}

}  // namespace gpuprof::importers
