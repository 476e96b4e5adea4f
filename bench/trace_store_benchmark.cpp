// Measures the trace store: write rate against a bare SQLite insert loop into
// the same table layout (same run, same pragmas), load rate into the in-memory
// model, file size per event, and peak memory of loading (in a child process so
// the writer's memory does not count). Prints figures; never fails on time.
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "gpuprof/synthetic/synthetic_trace.hpp"
#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/schema_version.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_writer.hpp"

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// CPU seconds of the whole process: less sensitive than wall time to other
// work on a shared 2-core machine.
double process_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + static_cast<double>(now.tv_nsec) * 1e-9;
}

struct Rate {
  double wall_per_second = 0;
  double cpu_per_second = 0;
};

gpuprof::trace::KernelRow kernel_like_row(std::int64_t i, gpuprof::trace::StringId name) {
  return {.device = static_cast<std::int32_t>(i % 8), .context = 1, .stream = 7 + i % 4,
          .start_ns = 1'700'000'000'000'000'000 + i * 1'000, .end_ns = 1'700'000'000'000'000'000 + i * 1'000 + 700,
          .correlation_id = i, .name = name, .grid = gpuprof::trace::Dim3{264, 1, 1},
          .block = gpuprof::trace::Dim3{256, 1, 1}, .registers_per_thread = 96, .static_shared_bytes = 0,
          .dynamic_shared_bytes = 49152};
}

void check(int status, sqlite3* db) {
  if (status != SQLITE_OK && status != SQLITE_DONE) {
    std::fprintf(stderr, "sqlite: %s\n", sqlite3_errmsg(db));
    std::exit(1);
  }
}

constexpr int kKernelColumns = 18;
constexpr std::int64_t kRowsPerStatement = 32;  // as the writer's multi-row INSERTs (batched_insert.hpp)

// One INSERT of `rows` kernel rows, all parameters.
std::string kernel_insert_sql(std::int64_t rows) {
  std::string one_row = "(?";
  for (int column = 1; column < kKernelColumns; ++column) one_row += ",?";
  one_row += ")";
  std::string sql = "INSERT INTO kernels VALUES " + one_row;
  for (std::int64_t row = 1; row < rows; ++row) sql += "," + one_row;
  return sql;
}

void bind_kernel_like_row(sqlite3_stmt* insert, int first, std::int64_t i) {
  const auto row = kernel_like_row(i, 0);
  const std::int64_t values[] = {row.device, *row.context, *row.stream, row.start_ns, row.end_ns,
                                 *row.correlation_id, row.name, row.grid->x, row.grid->y, row.grid->z,
                                 row.block->x, row.block->y, row.block->z, *row.registers_per_thread,
                                 *row.static_shared_bytes, *row.dynamic_shared_bytes};
  for (int column = 0; column < 16; ++column) sqlite3_bind_int64(insert, first + column, values[column]);
  sqlite3_bind_null(insert, first + 16);  // graph_node_id
  sqlite3_bind_null(insert, first + 17);  // mangled_name_id
}

// The baseline: what a hand-written loop achieves with the same schema, pragmas,
// transactions and multi-row statements as the writer, without its checks,
// column chunks or interning.
Rate bare_sqlite_rows_per_second(const std::string& path, std::int64_t rows) {
  fs::remove(path);
  sqlite3* db = nullptr;
  check(sqlite3_open(path.c_str(), &db), db);
  check(sqlite3_exec(db, "PRAGMA page_size=16384; PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA locking_mode=EXCLUSIVE;"
                         "PRAGMA cache_size=-65536;", nullptr, nullptr, nullptr), db);
  check(sqlite3_exec(db, std::string(gpuprof::trace::schema_sql()).c_str(), nullptr, nullptr, nullptr), db);
  check(sqlite3_exec(db, "INSERT INTO strings VALUES (0, 'gemm')", nullptr, nullptr, nullptr), db);
  sqlite3_stmt* batch = nullptr;
  sqlite3_stmt* single = nullptr;
  check(sqlite3_prepare_v2(db, kernel_insert_sql(kRowsPerStatement).c_str(), -1, &batch, nullptr), db);
  check(sqlite3_prepare_v2(db, kernel_insert_sql(1).c_str(), -1, &single, nullptr), db);
  const auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  check(sqlite3_exec(db, "BEGIN", nullptr, nullptr, nullptr), db);
  std::int64_t i = 0;
  for (; i + kRowsPerStatement <= rows; i += kRowsPerStatement) {
    for (std::int64_t row = 0; row < kRowsPerStatement; ++row) {
      bind_kernel_like_row(batch, static_cast<int>(row) * kKernelColumns + 1, i + row);
    }
    check(sqlite3_step(batch), db);
    sqlite3_reset(batch);
    if ((i / kRowsPerStatement) % (500'000 / kRowsPerStatement) == 0 && i > 0) {
      check(sqlite3_exec(db, "COMMIT; BEGIN", nullptr, nullptr, nullptr), db);
    }
  }
  for (; i < rows; ++i) {
    bind_kernel_like_row(single, 1, i);
    check(sqlite3_step(single), db);
    sqlite3_reset(single);
  }
  check(sqlite3_exec(db, "COMMIT", nullptr, nullptr, nullptr), db);
  check(sqlite3_exec(db, std::string(gpuprof::trace::index_sql()).c_str(), nullptr, nullptr, nullptr), db);
  const double elapsed = seconds_since(start);
  const double cpu = process_cpu_seconds() - cpu_start;
  sqlite3_finalize(batch);
  sqlite3_finalize(single);
  sqlite3_close(db);
  return {static_cast<double>(rows) / elapsed, static_cast<double>(rows) / cpu};
}

Rate writer_rows_per_second(const std::string& path, std::int64_t rows, bool background_writes) {
  fs::remove(path);
  gpuprof::trace::TraceWriter writer({.path = path, .background_writes = background_writes});
  const auto name = writer.intern("gemm");
  const auto start = Clock::now();
  const double cpu_start = process_cpu_seconds();
  for (std::int64_t i = 0; i < rows; ++i) writer.add(kernel_like_row(i, name));
  writer.finish();
  const double cpu = process_cpu_seconds() - cpu_start;
  return {static_cast<double>(rows) / seconds_since(start), static_cast<double>(rows) / cpu};
}

// Loads the model in a child process and reports its time and peak resident memory.
void measure_load(const std::string& path, std::int64_t events, bool launch_details) {
  int pipe_ends[2];
  if (::pipe(pipe_ends) != 0) std::exit(1);
  const pid_t child = ::fork();
  if (child == 0) {
    const auto start = Clock::now();
    const double cpu_start = process_cpu_seconds();
    // "For analysis" loads what `gpuprof report` loads (job_analysis.cpp).
    const auto model = gpuprof::trace::load_trace_model(
        path, {.load_kernel_launch_details = launch_details, .load_contexts_and_return_codes = launch_details});
    const double elapsed = seconds_since(start);
    const double cpu = process_cpu_seconds() - cpu_start;
    const auto loaded = static_cast<double>(model.event_count());
    (void)!::write(pipe_ends[1], &elapsed, sizeof elapsed);
    (void)!::write(pipe_ends[1], &loaded, sizeof loaded);
    (void)!::write(pipe_ends[1], &cpu, sizeof cpu);
    ::_exit(0);
  }
  double elapsed = 0, loaded = 0, cpu = 0;
  (void)!::read(pipe_ends[0], &elapsed, sizeof elapsed);
  (void)!::read(pipe_ends[0], &loaded, sizeof loaded);
  (void)!::read(pipe_ends[0], &cpu, sizeof cpu);
  int status = 0;
  rusage usage{};
  ::wait4(child, &status, 0, &usage);
  std::printf("load %s  %.0f events in %.2f s wall = %.2f million rows/s (CPU %.2f s on 2 threads)\n",
              launch_details ? "everything    " : "for analysis  ", loaded, elapsed, loaded / elapsed / 1e6, cpu);
  std::printf("  peak memory        %.0f MiB for %lld events (%.0f bytes/event)\n",
              static_cast<double>(usage.ru_maxrss) / 1024.0, static_cast<long long>(events),
              static_cast<double>(usage.ru_maxrss) * 1024.0 / static_cast<double>(events));
}

}  // namespace

int main(int argc, char** argv) {
  if (!std::getenv("GPUPROF_BENCH_SQLITE_DEFAULTS")) gpuprof::sqlite::configure_for_untrusted_files();
  const std::int64_t rows = argc > 1 ? std::atoll(argv[1]) : 2'000'000;
  const std::int64_t events = argc > 2 ? std::atoll(argv[2]) : 10'000'000;
  const fs::path folder = argc > 3 ? fs::path(argv[3]) : fs::temp_directory_path() / "gpuprof-store-bench";
  fs::create_directories(folder);
  const auto bare_path = (folder / "bare.sqlite").string();
  const auto writer_path = (folder / "writer.sqlite").string();

  std::printf("trace store benchmark: %lld kernel-like rows, %lld synthetic events\n", static_cast<long long>(rows),
              static_cast<long long>(events));
  const Rate bare = bare_sqlite_rows_per_second(bare_path, rows);
  std::printf("bare SQLite loop     %.2f million rows/s wall, %.2f per CPU second (incl. index build)\n",
              bare.wall_per_second / 1e6, bare.cpu_per_second / 1e6);
  for (const bool background : {false, true}) {
    const Rate ours = writer_rows_per_second(writer_path, rows, background);
    std::printf("TraceWriter%s %.2f million rows/s wall, %.2f per CPU second = %.0f%% of bare (CPU), "
                "column chunks included\n",
                background ? " (background writes)" : "                    ", ours.wall_per_second / 1e6,
                ours.cpu_per_second / 1e6, 100.0 * ours.cpu_per_second / bare.cpu_per_second);
  }
  std::printf("kernel rows file     %.1f bytes/row with indexes\n",
              static_cast<double>(fs::file_size(writer_path)) / static_cast<double>(rows));

  const auto synthetic_path = (folder / "synthetic.sqlite").string();
  fs::remove(synthetic_path);
  const auto start = Clock::now();
  const auto summary = gpuprof::synthetic::write_synthetic_trace(
      synthetic_path, {.devices = 8, .steps = 100, .events = events, .seed = 1});
  const double synth_seconds = seconds_since(start);
  std::printf("synth                %lld events in %.2f s = %.2f million events/s\n",
              static_cast<long long>(summary.events), synth_seconds,
              static_cast<double>(summary.events) / synth_seconds / 1e6);
  std::printf("synthetic file       %.1f bytes/event with indexes (%.0f MiB)\n",
              static_cast<double>(fs::file_size(synthetic_path)) / static_cast<double>(summary.events),
              static_cast<double>(fs::file_size(synthetic_path)) / 1048576.0);
  measure_load(synthetic_path, summary.events, true);
  measure_load(synthetic_path, summary.events, false);
  fs::remove_all(folder);
  return 0;
}
