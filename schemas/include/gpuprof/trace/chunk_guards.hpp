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

}  // namespace gpuprof::trace
