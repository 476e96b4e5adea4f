#include "gpuprof/trace/derived_tables.hpp"

#include "gpuprof/trace/sqlite_database.hpp"
#include "gpuprof/trace/trace_file.hpp"

namespace gpuprof::trace {

void save_derived_tables(const std::string& path, const std::vector<StepRow>& steps,
                         const std::vector<GapRow>& gaps) {
  { TraceFile check(path); }  // refuses foreign or newer files before anything is written
  sqlite::Database database(path, sqlite::OpenMode::read_write);
  database.execute("BEGIN IMMEDIATE");
  database.execute("DELETE FROM steps; DELETE FROM gaps;");
  sqlite::Statement insert_step(database, "INSERT INTO steps VALUES (?, ?, ?, ?, ?, ?, ?)");
  for (const auto& row : steps) {
    insert_step.bind(1, row.rank);
    insert_step.bind(2, std::int64_t{row.device});
    insert_step.bind(3, row.step);
    insert_step.bind(4, row.start_ns);
    insert_step.bind(5, row.end_ns);
    insert_step.bind(6, row.busy_ns);
    insert_step.bind(7, std::int64_t{row.warmup ? 1 : 0});
    insert_step.run();
  }
  sqlite::Statement insert_gap(database, "INSERT INTO gaps VALUES (?, ?, ?, ?, ?, ?)");
  for (const auto& row : gaps) {
    insert_gap.bind(1, row.rank);
    insert_gap.bind(2, std::int64_t{row.device});
    insert_gap.bind(3, row.after_step);
    insert_gap.bind(4, row.start_ns);
    insert_gap.bind(5, row.end_ns);
    insert_gap.bind(6, std::string_view(row.cause));
    insert_gap.run();
  }
  database.execute("COMMIT");
}

}  // namespace gpuprof::trace
