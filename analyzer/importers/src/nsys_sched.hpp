#pragma once

// Nsight Systems' record of the OS scheduler (`nsys profile` with CPU context
// switches, the default on Linux): the SCHED_EVENTS table of its SQLite export,
// one row per switch of a thread onto or off a CPU, as stretches of the
// thread_states table.

#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

inline constexpr const char* kNsysSchedTable = "SCHED_EVENTS";

// Pairs each thread's switches in time order: from a switch in to the next
// switch out the thread is running, from a switch out to the next switch in it
// is not (with the OS state and blocking reason the switch out gives). Rows
// without a thread, a direction or a usable time are left out and counted; two
// switches in a row the same way leave the stretch between them unknown (not
// stored, counted); rows out of time order within their thread are sorted and
// counted. A table without the columns read is counted and skipped whole.
void read_nsys_thread_states(sqlite::Database& database, ImportSink& sink);

}  // namespace gpuprof::importers
