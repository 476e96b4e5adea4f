#pragma once

// The `gpuprof info` document: what a trace file holds (schema, source, host, devices, time span, rows per
// table, collector stats and recording loss), as text for people or JSON for scripts (format "gpuprof.info/1").
// Built here, not in the CLI, so that every front end (the CLI, the app) can show the same document.
// Strings from the file are made printable in text and written as JSON strings in JSON, which escape every
// control character, so none reaches a terminal raw.

#include <string>
#include <vector>

namespace gpuprof::report {

struct InfoTrace {
  std::string shown_path;  // as the user named it (or found in a folder)
  std::string trace_path;  // the gpuprof trace read: the file itself or its imported copy
};

// One trace's description, lines within the terminal's 120 columns. Throws TraceError naming the trace read
// for one that cannot be read; the whole text is built before it is returned.
std::string info_text(const InfoTrace& trace);
// One trace's JSON object; throws as info_text does.
std::string info_json_trace(const InfoTrace& trace);
// The JSON document holding those objects, in order.
std::string info_json_document(const std::vector<std::string>& trace_objects);

}  // namespace gpuprof::report
