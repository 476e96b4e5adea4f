#pragma once

// The column chunks (`event_chunks`) copy the event rows, and the rows are the
// truth. Any SQLite client may edit the rows of a finished file (trimming a
// warm-up with DELETE, fixing times with UPDATE); the chunks would then hide
// the edit. So each chunked table carries triggers that empty `event_chunks`
// on any INSERT, UPDATE or DELETE, and readers fall back to the rows.
//
// gpuprof's own connections never run triggers (sqlite_database.hpp): code
// that edits rows itself rewrites the chunks (rewrite_event_chunks). A file is
// accepted with exactly these triggers, compared by name and SQL text.

#include <vector>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::trace {

// Every guard trigger, as sqlite_master stores it once created.
const std::vector<sqlite::StoredCode>& chunk_guard_triggers();

// (Re)creates every guard trigger, inside the caller's transaction.
void install_chunk_guards(sqlite::Database& database);

// Whether every guard is in the file. Writers install them when a file is
// finished, after its last chunk, so a file without them (a collector killed
// mid-run, guards dropped by a user) has chunks that need not match its rows.
// Assumes the file's stored code was checked (refuse_code): any guard present
// is then exactly ours.
bool chunk_guards_installed(sqlite::Database& database);

}  // namespace gpuprof::trace
