// Measures the importers: Kineto JSON throughput (MB/s of uncompressed JSON)
// with peak memory at two file sizes, and Nsight Systems and nvprof rows/s. Each
// import runs in a child process so its peak RSS is its own. Prints figures only.
//
//   gpuprof_import_benchmark [small_mb=100] [large_mb=400] [nsys_rows=2000000] [nvprof_rows=nsys_rows]
//
// Each figure is followed by the same input read only (rows checked and counted, no trace written), so the
// importers' reading side can be judged apart from the trace writer.
//
//   gpuprof_import_benchmark read FILE   (reads FILE only, into the storing-nothing sink; for profiling)
//
// A size of 0 skips that run. GPUPROF_BENCH_KEEP=DIR writes the inputs (and imports) there and keeps them.

#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/importers/import_trace.hpp"
#include "gpuprof/importers/kineto_importer.hpp"
#include "gpuprof/importers/nsys_importer.hpp"
#include "gpuprof/importers/nvprof_importer.hpp"
#include "gpuprof/importers/source_format.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace fs = std::filesystem;
using namespace gpuprof;

namespace {

// A training-step-like event mix: runtime call, kernel with args, flow events, a copy, a CPU op.
void write_kineto(const std::string& path, std::size_t target_bytes) {
  std::ofstream out(path);
  out << R"j({"schemaVersion": 1, "distributedInfo": {"backend": "nccl", "rank": 0, "world_size": 8},)j"
      << R"j( "traceEvents": [)j" << '\n';
  std::size_t written = 0;
  long long ts = 1694128201000000;
  for (long long i = 0; written < target_bytes; ++i, ts += 7) {
    char buffer[2048];
    const int n = std::snprintf(
        buffer, sizeof buffer,
        R"j(  {"ph": "X", "cat": "cpu_op", "name": "aten::linear", "pid": 59811, "tid": 59976, "ts": %lld.%03lld, "dur": 52.125, "args": {"External id": %lld, "Ev Idx": 0, "Input Dims": [[64, 1024], [1024, 1024]], "Input type": ["float", "float"]}},)j" "\n"
        R"j(  {"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel", "pid": 59811, "tid": 59976, "ts": %lld.500, "dur": 3.25, "args": {"External id": %lld, "cbid": 211, "correlation": %lld}},)j" "\n"
        R"j(  {"ph": "s", "id": %lld, "pid": 59811, "tid": 59976, "ts": %lld.500, "cat": "ac2g", "name": "ac2g"},)j" "\n"
        R"j(  {"ph": "X", "cat": "kernel", "name": "void gemmSN_TN_kernel<float, 128, 16, 2, 4, 8, 9, false>(cublasGemmSmallNParams)", "pid": 0, "tid": 7, "ts": %lld.750, "dur": 12.5, "args": {"External id": %lld, "queued": 0, "device": 0, "context": 1, "stream": 7, "correlation": %lld, "registers per thread": 96, "shared memory": 8192, "blocks per SM": 0.5, "warps per SM": 4.0, "grid": [64, 1, 1], "block": [128, 1, 1], "est. achieved occupancy %%": 12}},)j" "\n"
        R"j(  {"ph": "f", "id": %lld, "pid": 0, "tid": 7, "ts": %lld.750, "cat": "ac2g", "name": "ac2g", "bp": "e"},)j" "\n"
        R"j(  {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)", "pid": 0, "tid": 7, "ts": %lld.900, "dur": 1.5, "args": {"External id": %lld, "device": 0, "context": 1, "stream": 7, "correlation": %lld, "bytes": 832, "memory bandwidth (GB/s)": 0.56}},)j" "\n",
        ts, i % 1000, i, ts, i, i, i, ts, ts + 1, i, i, i, ts + 1, ts + 3, i, i);
    out.write(buffer, n);
    written += static_cast<std::size_t>(n);
  }
  out << R"j(  {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 59811, "tid": 59976, "ts": 1694128201000000, "dur": 5}]})j" << '\n';
}

void write_nsys(const std::string& path, long long rows) {
  sqlite::Database database(path, sqlite::OpenMode::create);
  database.execute(R"j(
    PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
    CREATE TABLE StringIds (id INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringIds VALUES (1, 'gemm_kernel'), (2, 'cudaLaunchKernel_v7000');
    CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start INTEGER NOT NULL, end INTEGER NOT NULL, deviceId INTEGER,
      contextId INTEGER, streamId INTEGER, correlationId INTEGER, globalPid INTEGER, demangledName INTEGER,
      shortName INTEGER, registersPerThread INTEGER, gridX INTEGER, gridY INTEGER, gridZ INTEGER, blockX INTEGER,
      blockY INTEGER, blockZ INTEGER, staticSharedMemory INTEGER, dynamicSharedMemory INTEGER,
      graphNodeId INTEGER);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start INTEGER NOT NULL, end INTEGER NOT NULL, eventClass INTEGER,
      globalTid INTEGER, correlationId INTEGER, nameId INTEGER, returnValue INTEGER);)j");
  const std::string half = std::to_string(rows / 2);
  database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + half + ") "
      "INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL SELECT i * 1000, i * 1000 + 500, 0, 1, 7 + i % 4, i, 0, 1, 1, 32, "
      "64, 1, 1, 128, 1, 1, 0, 0, NULL FROM n;"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + half + ") "
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT i * 1000 - 300, i * 1000 - 290, 0, 282323165693308, i, 2, 0 "
      "FROM n;");
}

// Half kernels, half runtime calls (cudaLaunchKernel, callback id 211), as nvprof stores them.
void write_nvprof(const std::string& path, long long rows) {
  sqlite::Database database(path, sqlite::OpenMode::create);
  database.execute(R"j(
    PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;
    CREATE TABLE StringTable (_id_ INTEGER PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO StringTable VALUES (1, '_Z11gemm_kernelPfS_i');
    CREATE TABLE CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL (_id_ INTEGER PRIMARY KEY, start INT NOT NULL,
      end INT NOT NULL, deviceId INT, contextId INT, streamId INT, correlationId INT, name INT, gridX INT,
      gridY INT, gridZ INT, blockX INT, blockY INT, blockZ INT, registersPerThread INT, staticSharedMemory INT,
      dynamicSharedMemory INT);
    CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (_id_ INTEGER PRIMARY KEY, cbid INT NOT NULL, start INT NOT NULL,
      end INT NOT NULL, processId INT NOT NULL, threadId INT NOT NULL, correlationId INT NOT NULL,
      returnValue INT NOT NULL);)j");
  const std::string half = std::to_string(rows / 2);
  database.execute(
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + half + ") "
      "INSERT INTO CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL SELECT NULL, i * 1000, i * 1000 + 500, 0, 1, 7 + i % 4, i, "
      "1, 64, 1, 1, 128, 1, 1, 32, 0, 0 FROM n;"
      "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < " + half + ") "
      "INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME SELECT NULL, 211, i * 1000 - 300, i * 1000 - 290, 4242, 4243, i, 0 "
      "FROM n;");
}

struct Measurement {
  double seconds = 0, cpu_seconds = 0;  // wall time, and user + system time of the import alone
  long peak_kib = 0;
  long long kernels = 0, api_calls = 0;
};

// The reading side alone: the importer runs into a sink that checks and counts rows but stores
// nothing, so the figure excludes the trace writer (SQLite inserts, indexes, chunks).
importers::ImportCounts read_only(const std::string& input) {
  importers::ImportSink sink;
  switch (importers::detect_source_format(input)) {
    case importers::SourceFormat::kineto: importers::import_kineto(input, sink); break;
    case importers::SourceFormat::nsys: importers::import_nsys(input, sink); break;
    case importers::SourceFormat::nvprof: importers::import_nvprof(input, sink); break;
    case importers::SourceFormat::gpuprof: break;
  }
  return sink.counts();
}

// Imports (or only reads, see read_only) in a child process; the parent reads the
// child's own peak RSS from wait4().
Measurement measure_import(const std::string& input, const std::string& output, bool reading_only = false) {
  int channel[2];
  if (::pipe(channel) != 0) std::exit(1);
  const auto start = std::chrono::steady_clock::now();
  const pid_t child = ::fork();
  if (child == 0) {
    ::close(channel[0]);
    importers::ImportCounts imported;
    if (reading_only) {
      imported = read_only(input);
    } else {
      importers::ImportOptions options;
      options.input = input;
      options.output = output;
      options.overwrite = true;
      imported = importers::import_trace(options).counts;
    }
    const long long counts[2] = {imported.kernels, imported.api_calls};
    if (::write(channel[1], counts, sizeof counts) != sizeof counts) ::_exit(1);
    ::_exit(0);
  }
  ::close(channel[1]);
  Measurement measurement;
  long long counts[2] = {0, 0};
  if (::read(channel[0], counts, sizeof counts) != sizeof counts) std::fprintf(stderr, "import failed\n");
  ::close(channel[0]);
  int status = 0;
  rusage usage{};
  ::wait4(child, &status, 0, &usage);
  measurement.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  measurement.peak_kib = usage.ru_maxrss;
  measurement.cpu_seconds = static_cast<double>(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) +
                            static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  measurement.kernels = counts[0];
  measurement.api_calls = counts[1];
  return measurement;
}

void kineto_run(const fs::path& folder, std::size_t megabytes) {
  const std::string input = (folder / ("kineto_" + std::to_string(megabytes) + ".json")).string();
  write_kineto(input, megabytes << 20);
  const double size_mb = static_cast<double>(fs::file_size(input)) / (1 << 20);
  const auto result = measure_import(input, (folder / "kineto.sqlite").string());
  std::printf("kineto  %7.1f MB JSON  wall %6.2f s  %7.1f MB/s  cpu %6.2f s  %7.1f MB/cpu-s  %9lld kernels  "
              "peak RSS %6.1f MB\n", size_mb, result.seconds, size_mb / result.seconds, result.cpu_seconds,
              size_mb / result.cpu_seconds, result.kernels, static_cast<double>(result.peak_kib) / 1024.0);
  const auto reading = measure_import(input, "", true);
  std::printf("  reading only (no trace written)  wall %6.2f s  %7.1f MB/s  cpu %6.2f s  %7.1f MB/cpu-s  %9lld kernels  "
              "peak RSS %6.1f MB\n", reading.seconds, size_mb / reading.seconds, reading.cpu_seconds,
              size_mb / reading.cpu_seconds, reading.kernels, static_cast<double>(reading.peak_kib) / 1024.0);
  if (std::getenv("GPUPROF_BENCH_KEEP") != nullptr) return;
  fs::remove(input);
  fs::remove(folder / "kineto.sqlite");
}

// Imports a generated SQLite file of `rows` rows and prints rows/s.
void sqlite_run(const fs::path& folder, const char* label, long long rows,
                void (*write)(const std::string&, long long)) {
  const std::string input = (folder / (std::string(label) + ".sqlite")).string();
  write(input, rows);
  const auto result = measure_import(input, (folder / (std::string(label) + "-out.sqlite")).string());
  const double imported = static_cast<double>(result.kernels + result.api_calls);
  std::printf("%-7s %9.0f rows  wall %6.2f s  %6.2f M rows/s  cpu %6.2f s  %6.2f M rows/cpu-s  peak RSS %6.1f MB\n",
              label, imported, result.seconds, imported / result.seconds / 1e6, result.cpu_seconds,
              imported / result.cpu_seconds / 1e6, static_cast<double>(result.peak_kib) / 1024.0);
  const auto reading = measure_import(input, "", true);
  const double read_rows = static_cast<double>(reading.kernels + reading.api_calls);
  std::printf("  reading only (no trace written)   wall %6.2f s  %6.2f M rows/s  cpu %6.2f s  %6.2f M rows/cpu-s\n",
              reading.seconds, read_rows / reading.seconds / 1e6, reading.cpu_seconds,
              read_rows / reading.cpu_seconds / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc == 3 && std::string(argv[1]) == "read") {
    // Reads one existing file into the storing-nothing sink, for a profiler to look at.
    const auto counts = read_only(argv[2]);
    std::printf("read %lld kernels, %lld api calls\n", static_cast<long long>(counts.kernels),
                static_cast<long long>(counts.api_calls));
    return 0;
  }
  const std::size_t small_mb = argc > 1 ? std::stoul(argv[1]) : 100;
  const std::size_t large_mb = argc > 2 ? std::stoul(argv[2]) : 400;
  const long long nsys_rows = argc > 3 ? std::stoll(argv[3]) : 2'000'000;
  const long long nvprof_rows = argc > 4 ? std::stoll(argv[4]) : nsys_rows;
  // GPUPROF_BENCH_KEEP=DIR keeps the generated inputs there, to profile or compare imports of the same files.
  const char* keep = std::getenv("GPUPROF_BENCH_KEEP");
  const fs::path folder =
      keep != nullptr ? fs::path(keep) : fs::temp_directory_path() / ("gpuprof-import-bench-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  if (small_mb > 0) kineto_run(folder, small_mb);
  if (large_mb > 0) kineto_run(folder, large_mb);
  if (nsys_rows > 0) sqlite_run(folder, "nsys", nsys_rows, write_nsys);
  if (nvprof_rows > 0) sqlite_run(folder, "nvprof", nvprof_rows, write_nvprof);
  if (keep == nullptr) fs::remove_all(folder);
  return 0;
}
