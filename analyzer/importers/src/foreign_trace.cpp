#include "gpuprof/importers/foreign_trace.hpp"

#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::importers {

namespace fs = std::filesystem;

TemporaryStore::TemporaryStore() : private_folder_(make_temporary_folder()), folder_(private_folder_.path) {}

TemporaryStore::~TemporaryStore() {
  std::error_code ignored;
  fs::remove_all(folder_, ignored);
}

void TemporaryStore::add(const std::string& file) { file_names_.push_back(std::make_unique<TemporaryName>(file)); }

std::string open_as_trace(const std::string& input, TemporaryStore& store, const progress::ProgressCallback& progress) {
  const SourceFormat format = detect_source_format(input);
  if (format == SourceFormat::gpuprof) return input;
  // Several inputs may share a stem (worker0.json.gz, worker0.sqlite), so number them.
  std::size_t index = 0;
  fs::path output;
  do {
    output = store.folder() / (fs::path(input).stem().string() + "-" + std::to_string(index++) + ".sqlite");
  } while (fs::exists(output));
  store.add(output.string());
  ImportOptions options;
  options.input = input;
  options.output = output.string();
  options.format = format;
  options.progress = progress;
  try {
    import_trace(options);
  } catch (const TraceError& error) {
    // The imported copy is ours: a problem with it is reported against the user's file.
    if (error.path() == input) throw;
    throw TraceError(error.kind(), input, "cannot import it for this command: " + error.problem());
  }
  return output.string();
}

}  // namespace gpuprof::importers
