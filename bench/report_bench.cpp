// Times `gpuprof report` on a large synthetic trace, the command itself (text
// and JSON, every section), beside a bare SQLite scan of the same file in the
// same run, and prints each stage's share of the report's CPU (its --timings).
// Prints the figures and whether the targets of docs/performance.md hold; never
// fails on time. scripts/test.sh runs it, so its figures are in every CI log.
//
//   gpuprof_report_bench [TRACE] [--events N] [--runs R]
// Without TRACE, `gpuprof synth -o T --devices 4 --events N --seed 7` (default
// 10 million events) is made once under the temporary folder and reused.
//
// Each measurement is a child process: CPU time (user + sys) and peak resident
// memory come from wait4, wall time from the parent. The machine may be busy:
// the load average is printed with the figures, and CPU time is the figure to
// compare (wall time grows with the load, CPU time much less).

#include <fmt/format.h>
#include <sqlite3.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

// The issue-38 targets for 10 M events: wall time, peak memory, CPU against the bare scan's.
constexpr double kTargetWall = 1.0;
constexpr double kTargetMib = 600;
constexpr double kTargetBareRatio = 2.0;

struct Usage {
  double wall_s = 0, user_s = 0, system_s = 0, peak_mib = 0;
  int status = 0;
  double cpu_s() const { return user_s + system_s; }
};

double seconds(const timeval& value) {
  return static_cast<double>(value.tv_sec) + static_cast<double>(value.tv_usec) * 1e-6;
}

// Runs `child` in a child process (its return value the exit status) and measures it.
Usage measure(const std::function<int()>& child) {
  std::fflush(stdout), std::fflush(stderr);
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid == 0) _exit(child());
  Usage usage;
  rusage used{};
  if (pid < 0 || wait4(pid, &usage.status, 0, &used) != pid) {
    usage.status = -1;
    return usage;
  }
  usage.wall_s = std::chrono::duration<double>(Clock::now() - start).count();
  usage.user_s = seconds(used.ru_utime), usage.system_s = seconds(used.ru_stime);
  usage.peak_mib = static_cast<double>(used.ru_maxrss) / 1024.0;  // Linux reports KiB
  return usage;
}

// Runs the gpuprof binary with `arguments`, stderr into `stderr_path` when one is given.
int exec_gpuprof(const std::vector<std::string>& arguments, const std::string& stderr_path = {}) {
  std::vector<char*> argv{const_cast<char*>(GPUPROF_BINARY)};
  for (const auto& argument : arguments) argv.push_back(const_cast<char*>(argument.c_str()));
  argv.push_back(nullptr);
  if (!stderr_path.empty() && std::freopen(stderr_path.c_str(), "w", stderr) == nullptr) return 127;
  execv(GPUPROF_BINARY, argv.data());
  return 127;
}

// Every row and column of every event table through SQLite, each value read as
// an integer: what an SQL reader of the file pays (the "bare scan" of the
// targets; the report reads the column chunks instead where the file has them).
int bare_scan(const std::string& path) {
  sqlite3* database = nullptr;
  if (sqlite3_open_v2(path.c_str(), &database, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return 1;
  std::int64_t sum = 0, rows = 0;
  for (const char* table : {"kernels", "memcpys", "memsets", "api_calls", "syncs", "ranges", "collectives",
                            "memory_events", "thread_states"}) {
    sqlite3_stmt* statement = nullptr;
    if (sqlite3_prepare_v2(database, (std::string("SELECT * FROM ") + table).c_str(), -1, &statement, nullptr) !=
        SQLITE_OK) {
      continue;  // an older file without this table
    }
    const int columns = sqlite3_column_count(statement);
    while (sqlite3_step(statement) == SQLITE_ROW) {
      for (int column = 0; column < columns; ++column) sum += sqlite3_column_int64(statement, column);
      ++rows;
    }
    sqlite3_finalize(statement);
  }
  sqlite3_close(database);
  std::printf("bare scan: %lld rows (checksum %lld)\n", static_cast<long long>(rows), static_cast<long long>(sum));
  return 0;
}

// Every column-chunk blob read through SQLite, one byte per page touched: the
// least SQLite work that yields a chunked file's events, with no decoding (a
// floor no report reaches; printed to show what the file's size alone costs).
int blob_scan(const std::string& path) {
  sqlite3* database = nullptr;
  if (sqlite3_open_v2(path.c_str(), &database, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK) return 1;
  std::int64_t bytes = 0;
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(database, "SELECT data FROM event_chunks", -1, &statement, nullptr) == SQLITE_OK) {
    while (sqlite3_step(statement) == SQLITE_ROW) {
      const auto* data = static_cast<const unsigned char*>(sqlite3_column_blob(statement, 0));
      const int size = sqlite3_column_bytes(statement, 0);
      for (int at = 0; at < size; at += 4096) bytes += data[at];  // touched, as a decoder would
      bytes += size;
    }
  }
  sqlite3_finalize(statement);
  sqlite3_close(database);
  std::printf("blob scan: %lld\n", static_cast<long long>(bytes));
  return 0;
}

std::string load_average() {
  std::ifstream file("/proc/loadavg");
  std::string one, five, fifteen;
  file >> one >> five >> fifteen;
  return one + " " + five + " " + fifteen;
}

std::string read_text(const std::string& path) {
  std::ifstream file(path);
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

// The stage table of a --timings run: its lines after the header, as printed.
std::string stage_lines(const std::string& stderr_text) {
  const auto at = stderr_text.find("gpuprof: timings");
  return at == std::string::npos ? std::string("  (no timings printed)\n") : stderr_text.substr(at);
}

std::string prepare_trace(std::int64_t events, const fs::path& folder) {
  const auto path = (folder / fmt::format("gpuprof_report_bench_{}_seed7.sqlite", events)).string();
  if (fs::exists(path)) return path;
  fmt::print("making {} ({} events): gpuprof synth --devices 4 --events {} --seed 7\n", path, events, events);
  const auto made = measure([&] {
    return exec_gpuprof({"synth", "-o", path + ".part", "--devices", "4", "--events", std::to_string(events), "--seed",
                         "7", "--quiet"});
  });
  std::error_code error;
  if (made.status == 0) fs::rename(path + ".part", path, error);
  if (made.status != 0 || error) {
    fmt::print("synth failed (status {})\n", made.status);
    return {};
  }
  fmt::print("made in {:.1f} s wall, {:.1f} s CPU\n", made.wall_s, made.cpu_s());
  return path;
}

std::string verdict(bool met) { return met ? "met" : "NOT met"; }

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  std::int64_t events = 10'000'000;
  int runs = 3;
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    if (argument == "--events" && i + 1 < argc) events = std::atoll(argv[++i]);
    else if (argument == "--runs" && i + 1 < argc) runs = std::max(1, std::atoi(argv[++i]));
    else if (argument.starts_with('-') || !path.empty()) {
      fmt::print(stderr, "usage: gpuprof_report_bench [TRACE] [--events N] [--runs R]\n");
      return 2;
    } else {
      path = argument;
    }
  }
  std::error_code missing;
  if (!path.empty() && !fs::is_regular_file(path, missing)) {
    fmt::print(stderr, "gpuprof_report_bench: {}: not a trace file\n", path);
    return 2;
  }
  const auto folder = fs::temp_directory_path();
  if (path.empty()) path = prepare_trace(events, folder);
  if (path.empty()) return 0;  // a benchmark never fails the build; the line above says why
  // The figures are for the command as users start it, with no heap setting of their own.
  unsetenv("GLIBC_TUNABLES");
  setenv("GPUPROF_TIMINGS", "1", 1);
  const auto work = folder / fmt::format("gpuprof_report_bench_{}", getpid());
  fs::create_directories(work);
  const auto err = (work / "stderr.txt").string();

  fmt::print("report benchmark: {} ({:.0f} MB), {}\n", path, static_cast<double>(fs::file_size(path)) / 1e6,
             GPUPROF_BINARY);
  fmt::print("{:<4} {:<26} {:>8} {:>22} {:>9} {:>11} {:>14}\n", "run", "what", "wall s", "CPU s (user + sys)",
             "peak MiB", "CPU / bare", "load average");
  Usage best_text, best_json, best_bare;
  std::string text_stages, json_stages;
  const auto keep_best = [](Usage& best, const Usage& usage) {
    if (best.wall_s == 0 || usage.cpu_s() < best.cpu_s()) best = usage;
  };
  for (int run = 1; run <= runs; ++run) {
    const auto bare = measure([&] { return bare_scan(path); });
    const auto blobs = measure([&] { return blob_scan(path); });
    const auto print = [&](const char* what, const Usage& usage) {
      fmt::print("{:<4} {:<26} {:>8.2f} {:>8.2f} ({:.2f} + {:.2f}) {:>9.0f} {:>10.2f}x {:>14}{}\n", run, what,
                 usage.wall_s, usage.cpu_s(), usage.user_s, usage.system_s, usage.peak_mib,
                 usage.cpu_s() / std::max(bare.cpu_s(), 1e-9), load_average(),
                 usage.status == 0 ? "" : fmt::format("  FAILED (status {})", usage.status));
    };
    print("bare SQLite scan, rows", bare);
    print("chunk blobs, no decoding", blobs);
    const auto text = measure([&] {
      return exec_gpuprof({"report", path, "-o", (work / "r.txt").string(), "--force"}, err);
    });
    print("report, text", text);
    text_stages = stage_lines(read_text(err));
    const auto json = measure([&] {
      return exec_gpuprof({"report", path, "--format", "json", "-o", (work / "r.json").string(), "--force"}, err);
    });
    print("report, json", json);
    json_stages = stage_lines(read_text(err));
    keep_best(best_bare, bare), keep_best(best_text, text), keep_best(best_json, json);
  }
  for (const auto& [what, best] : {std::pair{"text", best_text}, std::pair{"json", best_json}}) {
    const double ratio = best.cpu_s() / std::max(best_bare.cpu_s(), 1e-9);
    fmt::print("targets, report {} (its lowest-CPU run against the lowest-CPU bare scan): wall {:.2f} s <= {:.1f}: {}; "
               "peak {:.0f} MiB <= {:.0f}: {}; CPU {:.2f}x the bare scan <= {:.1f}x: {}\n",
               what, best.wall_s, kTargetWall, verdict(best.wall_s <= kTargetWall), best.peak_mib, kTargetMib,
               verdict(best.peak_mib <= kTargetMib), ratio, kTargetBareRatio, verdict(ratio <= kTargetBareRatio));
  }
  fmt::print("(wall time holds for a quiet machine only: compare the load average above)\n");
  fmt::print("stages of the last text report:\n{}", text_stages);
  fmt::print("stages of the last json report:\n{}", json_stages);
  std::error_code ignored;
  fs::remove_all(work, ignored);
  return 0;
}
