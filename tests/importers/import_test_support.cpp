#include "import_test_support.hpp"

#include <zlib.h>

#include <stdexcept>

#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::testing {

void write_gzip_file(const std::string& path, const std::string& content) {
  gzFile file = gzopen(path.c_str(), "wb");
  if (file == nullptr) throw std::runtime_error("cannot write " + path);
  gzwrite(file, content.data(), static_cast<unsigned>(content.size()));
  gzclose(file);
}

void write_sqlite_file(const std::string& path, const std::string& sql) {
  sqlite::Database database(path, sqlite::OpenMode::create);
  database.execute(sql);
}

importers::ImportSummary import_file(const std::string& input, const std::string& output) {
  importers::ImportOptions options;
  options.input = input;
  options.output = output;
  return importers::import_trace(options);
}

}  // namespace gpuprof::testing
