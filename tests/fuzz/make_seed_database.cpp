// Builds one SQLite seed for the nsys/nvprof fuzz targets from a .sql script,
// so the fuzzer starts from real export structure instead of random bytes.
// Usage: gpuprof_fuzz_make_seed SCRIPT.sql OUTPUT.sqlite
#include <sqlite3.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

namespace {

bool run(sqlite3* database, const std::string& sql) {
  char* message = nullptr;
  if (sqlite3_exec(database, sql.c_str(), nullptr, nullptr, &message) == SQLITE_OK) return true;
  std::fprintf(stderr, "gpuprof_fuzz_make_seed: %s\n", message ? message : "unknown SQLite error");
  sqlite3_free(message);
  return false;
}

std::string read_text(const char* path) {
  std::ifstream stream(path);
  std::ostringstream text;
  text << stream.rdbuf();
  return text.str();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: gpuprof_fuzz_make_seed SCRIPT.sql OUTPUT.sqlite\n");
    return 2;
  }
  const std::string script = read_text(argv[1]);
  if (script.empty()) {
    std::fprintf(stderr, "gpuprof_fuzz_make_seed: cannot read %s\n", argv[1]);
    return 2;
  }
  std::remove(argv[2]);
  sqlite3* database = nullptr;
  bool ok = sqlite3_open(argv[2], &database) == SQLITE_OK;
  // Small pages keep each seed a few KiB: libFuzzer mutates short inputs far better.
  ok = ok && run(database, "PRAGMA page_size = 512; PRAGMA journal_mode = DELETE;");
  ok = ok && run(database, script) && run(database, "VACUUM;");
  sqlite3_close(database);
  return ok ? 0 : 1;
}
