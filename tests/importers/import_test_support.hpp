#pragma once

#include <string>

#include "gpuprof/importers/import_trace.hpp"

namespace gpuprof::testing {

void write_gzip_file(const std::string& path, const std::string& content);
// Runs SQL on a new SQLite file, to hand-build foreign databases.
void write_sqlite_file(const std::string& path, const std::string& sql);
importers::ImportSummary import_file(const std::string& input, const std::string& output);

}  // namespace gpuprof::testing
