#include "gpuprof/importers/foreign_trace.hpp"

#include <unistd.h>

#include <cstdlib>

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {

namespace fs = std::filesystem;

TemporaryStore::TemporaryStore() {
  std::string pattern = (fs::temp_directory_path() / "gpuprof-import-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) {
    throw TraceError::failure(pattern, "cannot create a temporary folder for imported traces");
  }
  folder_ = pattern;
}

TemporaryStore::~TemporaryStore() {
  std::error_code ignored;
  fs::remove_all(folder_, ignored);
}

std::string open_as_trace(const std::string& input, TemporaryStore& store) {
  const SourceFormat format = detect_source_format(input);
  if (format == SourceFormat::gpuprof) return input;
  // Several inputs may share a stem (worker0.json.gz, worker0.sqlite), so number them.
  std::size_t index = 0;
  fs::path output;
  do {
    output = store.folder() / (fs::path(input).stem().string() + "-" + std::to_string(index++) + ".sqlite");
  } while (fs::exists(output));
  ImportOptions options;
  options.input = input;
  options.output = output.string();
  options.format = format;
  import_trace(options);
  return output.string();
}

}  // namespace gpuprof::importers
