#pragma once

// A CSV file with a header row (RFC 4180 quoting), as maps from column name to
// cell: the transcribed tables of ../shared/data/scaling.

#include <map>
#include <string>
#include <vector>

namespace gpuprof::predict {

using CsvRow = std::map<std::string, std::string>;
// Throws TraceError::bad_input naming `path` when it cannot be read.
std::vector<CsvRow> read_csv_table(const std::string& path);

}  // namespace gpuprof::predict
