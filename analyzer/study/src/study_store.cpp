#include "gpuprof/study/study_store.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof::study {
namespace {

constexpr const char* kSchema = R"sql(
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE configurations(
  id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, workload TEXT NOT NULL,
  batch INTEGER NOT NULL, gpus INTEGER NOT NULL, strategy TEXT NOT NULL);
CREATE TABLE runs(
  id INTEGER PRIMARY KEY, configuration TEXT NOT NULL REFERENCES configurations(name),
  repeat INTEGER NOT NULL, kind TEXT NOT NULL, status TEXT NOT NULL, exit_code INTEGER, error TEXT,
  start_ns INTEGER NOT NULL, end_ns INTEGER, wall_seconds REAL, trace_paths TEXT,
  UNIQUE(configuration, repeat, kind));
CREATE TABLE results(
  run_id INTEGER PRIMARY KEY REFERENCES runs(id), time_seconds REAL NOT NULL, time_source TEXT NOT NULL,
  seconds_per_step REAL, epochs INTEGER, steps INTEGER, training_seconds REAL, samples_per_second REAL,
  accuracy REAL, validation_accuracy REAL, model TEXT);
)sql";

void bind_real(sqlite::Statement& statement, int index, const std::optional<double>& value) {
  if (value) statement.bind(index, *value); else statement.bind_null(index);
}

std::optional<double> column_real(const sqlite::Statement& statement, int column) {
  if (statement.is_null(column)) return std::nullopt;
  return statement.column_double(column);
}

std::string join_lines(const std::vector<std::string>& lines) {
  std::string text;
  for (const auto& line : lines) text += (text.empty() ? "" : "\n") + line;
  return text;
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    if (end > start) lines.emplace_back(text.substr(start, end - start));
    start = end + 1;
  }
  return lines;
}

// Whether `path`, with every symbolic link on the way resolved, lies inside `folder`.
bool resolves_inside(const std::filesystem::path& folder, const std::filesystem::path& path) {
  std::error_code error;
  const auto root = std::filesystem::weakly_canonical(folder, error);
  if (error) return false;
  const auto target = std::filesystem::weakly_canonical(path, error);
  if (error) return false;
  const auto relative = target.lexically_relative(root);
  return !relative.empty() && *relative.begin() != "..";
}

// A run's traces live in the study folder: a stored path that is absolute,
// climbs out of it (`..`) or leads out through a symbolic link would make
// `study` read files anywhere.
std::vector<std::string> paths_inside_study(const sqlite::Database& database, std::vector<std::string> paths) {
  const auto folder = std::filesystem::path(database.path()).parent_path();
  for (const auto& path : paths) {
    const std::filesystem::path relative(path);
    const bool climbs = std::any_of(relative.begin(), relative.end(), [](const auto& part) { return part == ".."; });
    if (relative.is_absolute() || climbs) {
      throw TraceError::bad_input(database.path(), "names a trace outside the study folder (" + path + "); refused");
    }
    if (!resolves_inside(folder.empty() ? "." : folder, (folder.empty() ? "." : folder) / relative)) {
      throw TraceError::bad_input(database.path(), "names a trace that a symbolic link leads out of the study folder (" +
                                                       path + "); refused: copy the trace into the folder");
    }
  }
  return paths;
}

void load_runs(sqlite::Database& database, StudyData& data) {
  sqlite::Statement select(database,
                           "SELECT id, configuration, repeat, kind, status, exit_code, error, start_ns, end_ns, "
                           "wall_seconds, trace_paths FROM runs ORDER BY id");
  while (select.step()) {
    RunRecord run;
    run.id = select.column_int(0);
    run.configuration = std::string(select.column_text(1));
    run.repeat = select.column_int(2);
    run.kind = run_kind_from_string(select.column_text(3)).value_or(RunKind::profiled);
    run.status = run_status_from_string(select.column_text(4)).value_or(RunStatus::running);
    run.exit_code = select.column_optional_int(5);
    run.error = std::string(select.column_text(6));
    run.start_ns = select.column_int(7);
    run.end_ns = select.column_optional_int(8).value_or(0);
    run.wall_seconds = column_real(select, 9).value_or(0);
    run.trace_paths = paths_inside_study(database, split_lines(select.column_text(10)));
    data.runs.push_back(std::move(run));
  }
}

void load_results(sqlite::Database& database, StudyData& data) {
  sqlite::Statement select(database,
                           "SELECT run_id, time_seconds, time_source, seconds_per_step, epochs, steps, "
                           "training_seconds, samples_per_second, accuracy, validation_accuracy, model FROM results");
  while (select.step()) {
    RunResult result;
    result.time_seconds = select.column_double(1);
    result.time_source = std::string(select.column_text(2));
    result.seconds_per_step = column_real(select, 3);
    result.summary.epochs = select.column_optional_int(4);
    result.summary.steps = select.column_optional_int(5);
    result.summary.training_seconds = column_real(select, 6);
    result.summary.samples_per_second = column_real(select, 7);
    result.summary.accuracy = column_real(select, 8);
    result.summary.validation_accuracy = column_real(select, 9);
    if (!select.is_null(10)) result.summary.model = std::string(select.column_text(10));
    data.results[select.column_int(0)] = std::move(result);
  }
}

}  // namespace

void refuse_links_out_of_study(const std::string& folder, const std::vector<std::string>& members) {
  const std::filesystem::path root(folder);
  for (const auto& member : members) {
    if (!resolves_inside(root, member)) {
      throw TraceError::bad_input(member, "leads out of the study folder through a symbolic link; sweep writes only "
                                          "inside " + folder + ": remove the link, or start the study in a new folder");
    }
  }
}

StudyStore StudyStore::create(const std::string& path, const std::map<std::string, std::string>& meta) {
  StudyStore store(sqlite::Database(path, sqlite::OpenMode::create));
  store.database_.execute("BEGIN");
  store.database_.execute(kSchema);
  sqlite::Statement insert(store.database_, "INSERT INTO meta(key, value) VALUES(?, ?)");
  auto all = meta;
  all["format"] = kStudyFormat;
  all["version"] = std::to_string(kStudyVersion);
  for (const auto& [key, value] : all) {
    insert.bind(1, std::string_view(key));
    insert.bind(2, std::string_view(value));
    insert.run();
  }
  store.database_.execute("COMMIT");
  return store;
}

StudyStore StudyStore::open(const std::string& path, bool writable) {
  StudyStore store(sqlite::Database(path, writable ? sqlite::OpenMode::read_write : sqlite::OpenMode::read_only));
  // A study file comes from anywhere, like a trace: code stored in it (a
  // generated column, a view in place of a table) would run on every read.
  store.database_.refuse_code({"meta", "configurations", "runs", "results"}, {});
  store.check_format();
  return store;
}

void StudyStore::check_format() {
  const auto& path = database_.path();
  if (!database_.has_table("meta")) throw TraceError::bad_input(path, "not a gpuprof study file (no meta table)");
  if (meta_value("format") != kStudyFormat) {
    throw TraceError::bad_input(path, "not a gpuprof study file (format is '" + meta_value("format") + "')");
  }
  const auto version = meta_value("version");
  if (version != std::to_string(kStudyVersion)) {
    throw TraceError::bad_input(path, fmt::format("study version {} is not supported (this gpuprof reads version {})",
                                                  version, kStudyVersion));
  }
}

std::string StudyStore::meta_value(const std::string& key) {
  sqlite::Statement select(database_, "SELECT value FROM meta WHERE key = ?");
  select.bind(1, std::string_view(key));
  return select.step() ? std::string(select.column_text(0)) : std::string();
}

void StudyStore::add_configuration(const Configuration& configuration) {
  sqlite::Statement insert(database_,
                           "INSERT OR IGNORE INTO configurations(name, workload, batch, gpus, strategy) "
                           "VALUES(?, ?, ?, ?, ?)");
  insert.bind(1, std::string_view(configuration.name()));
  insert.bind(2, std::string_view(configuration.workload));
  insert.bind(3, configuration.batch);
  insert.bind(4, configuration.gpus);
  insert.bind(5, std::string_view(configuration.strategy));
  insert.run();
}

std::int64_t StudyStore::begin_run(const std::string& configuration, std::int64_t repeat, RunKind kind,
                                   std::int64_t start_ns) {
  database_.execute("BEGIN");
  sqlite::Statement drop_result(database_,
                                "DELETE FROM results WHERE run_id IN "
                                "(SELECT id FROM runs WHERE configuration = ? AND repeat = ? AND kind = ?)");
  sqlite::Statement drop_run(database_, "DELETE FROM runs WHERE configuration = ? AND repeat = ? AND kind = ?");
  for (auto* statement : {&drop_result, &drop_run}) {
    statement->bind(1, std::string_view(configuration));
    statement->bind(2, repeat);
    statement->bind(3, std::string_view(to_string(kind)));
    statement->run();
  }
  sqlite::Statement insert(database_,
                           "INSERT INTO runs(configuration, repeat, kind, status, start_ns) VALUES(?, ?, ?, ?, ?)");
  insert.bind(1, std::string_view(configuration));
  insert.bind(2, repeat);
  insert.bind(3, std::string_view(to_string(kind)));
  insert.bind(4, std::string_view(to_string(RunStatus::running)));
  insert.bind(5, start_ns);
  insert.run();
  const auto id = database_.query_int("SELECT last_insert_rowid()").value_or(0);
  database_.execute("COMMIT");
  return id;
}

void StudyStore::finish_run(const RunRecord& run) {
  sqlite::Statement update(database_,
                           "UPDATE runs SET status = ?, exit_code = ?, error = ?, end_ns = ?, wall_seconds = ?, "
                           "trace_paths = ? WHERE id = ?");
  update.bind(1, std::string_view(to_string(run.status)));
  update.bind(2, run.exit_code);
  update.bind(3, std::string_view(run.error));
  update.bind(4, run.end_ns);
  update.bind(5, run.wall_seconds);
  update.bind(6, std::string_view(join_lines(run.trace_paths)));
  update.bind(7, run.id);
  update.run();
}

void StudyStore::save_result(std::int64_t run_id, const RunResult& result) {
  sqlite::Statement insert(database_,
                           "INSERT OR REPLACE INTO results(run_id, time_seconds, time_source, seconds_per_step, "
                           "epochs, steps, training_seconds, samples_per_second, accuracy, validation_accuracy, "
                           "model) VALUES(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");
  const auto& summary = result.summary;
  insert.bind(1, run_id);
  insert.bind(2, result.time_seconds);
  insert.bind(3, std::string_view(result.time_source));
  bind_real(insert, 4, result.seconds_per_step);
  insert.bind(5, summary.epochs);
  insert.bind(6, summary.steps);
  bind_real(insert, 7, summary.training_seconds);
  bind_real(insert, 8, summary.samples_per_second);
  bind_real(insert, 9, summary.accuracy);
  bind_real(insert, 10, summary.validation_accuracy);
  insert.bind(11, summary.model);
  insert.run();
}

StudyData StudyStore::load() {
  StudyData data;
  {
    sqlite::Statement select(database_, "SELECT key, value FROM meta");
    while (select.step()) data.meta[std::string(select.column_text(0))] = std::string(select.column_text(1));
  }
  {
    sqlite::Statement select(database_, "SELECT workload, batch, gpus, strategy FROM configurations ORDER BY id");
    while (select.step()) {
      data.configurations.push_back({std::string(select.column_text(0)), select.column_int(1), select.column_int(2),
                                     std::string(select.column_text(3))});
    }
  }
  load_runs(database_, data);
  load_results(database_, data);
  return data;
}

}  // namespace gpuprof::study
