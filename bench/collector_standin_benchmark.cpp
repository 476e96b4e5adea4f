// The collector's own host-side cost, measured on CPU through the stand-in
// libcupti (tests/collector/standin): a host program launches as fast as its
// threads go, once bare and once under `gpuprof record`. It prints the CPU added
// per launch on the program's threads (collector callbacks and buffer requests,
// plus the stand-in's buffering, which stands for CUPTI's own: an upper bound
// for the collector's part), the records per second the writer sustained, any
// drops, the exit time and the peak memory. These are the host-side part of the
// overhead a GPU run shows, never a GPU figure.
//
// collector_standin_benchmark [LAUNCHES_PER_THREAD ...]   (default 500000 5000000, one thread), then
// steady rates of 0.5 to 3 M records/s for 2 s each.

#include <sqlite3.h>
#include <sys/wait.h>

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;

struct Figures {
  std::map<std::string, double> values;  // from the "bench ..." lines
  double wall_s = 0;
};

// Runs a shell command and reads the "bench key value ..." lines it prints.
Figures run(const std::string& command) {
  Figures figures;
  const auto started = std::chrono::steady_clock::now();
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return figures;
  char line[4096];
  while (std::fgets(line, sizeof line, pipe) != nullptr) {
    std::istringstream words(line);
    std::string word, key;
    words >> word;
    if (word != "bench") continue;
    while (words >> key) {
      double value = 0;
      if (words >> value) figures.values[key] = value;
    }
  }
  ::pclose(pipe);
  figures.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return figures;
}

long long query(const std::string& path, const std::string& sql) {
  sqlite3* database = nullptr;
  long long value = -1;
  if (sqlite3_open_v2(path.c_str(), &database, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(database, sql.c_str(), -1, &statement, nullptr) == SQLITE_OK &&
        sqlite3_step(statement) == SQLITE_ROW) {
      value = sqlite3_column_int64(statement, 0);
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(database);
  return value;
}

struct Recorded {
  Figures figures;
  long long kernels = 0, api_calls = 0, dropped_records = 0, refused_requests = 0;
  double file_mib = 0;
};

// `launches` launches on one thread, at `rate` launches per second (0: as fast as it goes).
Recorded record(long long launches, long long rate, Figures* bare) {
  const std::string environment = std::string("LD_LIBRARY_PATH=") + STANDIN_LIB_DIR + " ";
  const std::string host = std::string(STANDIN_HOST) + " --devices 1 --bench-launches " + std::to_string(launches) +
                           " --bench-rate " + std::to_string(rate);
  if (bare != nullptr) *bare = run(environment + host);
  const auto folder = fs::temp_directory_path() / ("gpuprof-collector-bench-" + std::to_string(::getpid()));
  fs::create_directories(folder);
  const auto trace = (folder / "bench.sqlite").string();
  Recorded result;
  result.figures = run(environment + GPUPROF_BINARY + " record -f -o " + trace + " -- " + host + " 2>/dev/null");
  result.kernels = query(trace, "select count(*) from kernels");
  result.api_calls = query(trace, "select count(*) from api_calls");
  result.dropped_records = query(trace, "select coalesce(sum(value), 0) from collector_stats where name like '%dropped%'");
  result.refused_requests = query(trace, "select coalesce(sum(value), 0) from collector_stats where name in "
                                         "('buffer_requests_refused', 'buffers_not_returned')");
  result.file_mib = static_cast<double>(fs::file_size(trace)) / (1 << 20);
  fs::remove_all(folder);
  return result;
}

// The highest steady rate the writer keeps up with: no record dropped, no request refused.
void sustained_rates() {
  std::printf("steady launch rates, 2 s each (records = 2 x launches):\n");
  for (const long long records_per_second : {500'000LL, 1'000'000LL, 1'500'000LL, 2'000'000LL, 3'000'000LL}) {
    const long long rate = records_per_second / 2;
    const auto result = record(2 * rate, rate, nullptr);
    std::printf("  %.1f M records/s: %lld kernels + %lld API calls written, %lld dropped records, %lld refused "
                "requests, exit %.3f s%s\n",
                static_cast<double>(records_per_second) / 1e6, result.kernels, result.api_calls,
                result.dropped_records, result.refused_requests,
                result.figures.values.count("exit_s") ? result.figures.values.at("exit_s") : 0.0,
                result.dropped_records == 0 && result.refused_requests == 0 ? "  (no loss)" : "");
  }
}

void measure(long long launches) {
  Figures bare;
  const auto recorded_result = record(launches, 0, &bare);
  const auto& recorded = recorded_result.figures;
  const long long kernels = recorded_result.kernels, api_calls = recorded_result.api_calls;
  const double records = recorded.values.count("records") ? recorded.values.at("records") : 0;
  const double bare_cpu = bare.values.count("launch_cpu_s") ? bare.values.at("launch_cpu_s") : 0;
  const double recorded_cpu = recorded.values.count("launch_cpu_s") ? recorded.values.at("launch_cpu_s") : 0;
  const double launch_wall = recorded.values.count("launch_wall_s") ? recorded.values.at("launch_wall_s") : 0;
  const double exit_s = recorded.values.count("exit_s") ? recorded.values.at("exit_s") : 0;
  std::printf("%lld launches (%.0f records), one thread:\n", launches, records);
  std::printf("  CPU per launch on the program's thread: bare %.0f ns, recorded %.0f ns, added %.0f ns\n",
              bare_cpu / static_cast<double>(launches) * 1e9, recorded_cpu / static_cast<double>(launches) * 1e9,
              (recorded_cpu - bare_cpu) / static_cast<double>(launches) * 1e9);
  std::printf("  records written: %lld kernels + %lld API calls; %lld dropped records, %lld refused buffer requests\n",
              kernels, api_calls, recorded_result.dropped_records, recorded_result.refused_requests);
  std::printf("  records written per second, launching as fast as possible (launching + exit): %.2f M/s\n",
              static_cast<double>(kernels + api_calls) / (launch_wall + exit_s) / 1e6);
  std::printf("  the program's exit (final flush, translation of what was left, chunks): %.3f s\n", exit_s);
  std::printf("  gpuprof record in all (program, then the indexes and the summary): %.3f s wall\n",
              recorded.wall_s);
  std::printf("  peak memory: %.0f MiB (bare %.0f MiB)\n",
              recorded.values.count("peak_rss_kib") ? recorded.values.at("peak_rss_kib") / 1024 : 0,
              bare.values.count("peak_rss_kib") ? bare.values.at("peak_rss_kib") / 1024 : 0);
  std::printf("  trace file: %.1f MiB\n", recorded_result.file_mib);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<long long> sizes;
  for (int i = 1; i < argc; ++i) sizes.push_back(std::atoll(argv[i]));
  if (sizes.empty()) sizes = {500'000, 5'000'000};
  std::printf("collector benchmark through the stand-in libcupti (CPU only; not a GPU figure)\n");
  for (const auto launches : sizes) measure(launches);
  sustained_rates();
  return 0;
}
