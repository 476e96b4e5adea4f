#include <sqlite3.h>

#include <algorithm>
#include <charconv>
#include <future>
#include <numeric>
#include <span>
#include <utility>

#include "gpuprof/trace/chunk_guards.hpp"
#include "gpuprof/trace/stage_timings.hpp"
#include "gpuprof/trace/stats_catalogue.hpp"
#include "gpuprof/trace/trace_file.hpp"
#include "gpuprof/trace/trace_model.hpp"
#include "gpuprof/trace/trace_sorting.hpp"
#include "chunk_check.hpp"
#include "event_chunks.hpp"
#include "kernel_detail_rows.hpp"
#include "model_columns.hpp"
#include "row_rules.hpp"
#include "row_stores.hpp"
#include "table_reads.hpp"

namespace gpuprof::trace {
namespace {

// What one loading thread checks rows against, and where it counts the rows it
// leaves out and the chunk forms it could not use.
struct RowChecks {
  const std::vector<std::uint8_t>& strings_present;
  // Files of schema 1.2 and later may hold column chunks; a file claiming an
  // older version has none that this writer made, and a file without the chunk
  // guards was not finished (chunk_guards.hpp).
  bool chunks_allowed;
  LeftOutRows left_out;
  std::vector<StatRow> problems;
  const std::function<void(std::int64_t)>* on_rows = nullptr;  // LoadOptions::on_rows when set
};

// Rows between two calls of LoadOptions::on_rows: rare enough to cost nothing
// next to decoding them, frequent enough for ten updates a second.
constexpr std::int64_t kRowsPerReport = 16384;

// The largest row id of a table: a B-tree descent, where count(*) would scan
// the whole table. Exact for files gpuprof writes (rows are only appended), an
// upper bound otherwise.
std::int64_t row_bound(sqlite::Database& database, const std::string& table_name) {
  return std::max<std::int64_t>(0, database.query_int("SELECT max(rowid) FROM " + table_name).value_or(0));
}

// Whether a table's column chunks were read, and what was wrong with them if they
// could not be used.
struct ChunkRead {
  bool used = false;
  std::string problem;
};

// Where a table's times are: a table without them has no chunks this writer made.
struct TimeColumns {
  int start = -1, end = -1;
};

TimeColumns time_columns(sqlite::Statement& all_columns) {
  TimeColumns found;
  for (int column = 0; column < all_columns.column_count(); ++column) {
    const std::string_view name = sqlite3_column_name(all_columns.raw(), column);
    if (name == "start_ns") found.start = column;
    if (name == "end_ns") found.end = column;
  }
  return found;
}

// The seed of a chunk's sampled rows: its checksum (the blob's first 8 bytes), which no two chunks share by design.
std::uint64_t sample_seed(std::span<const std::uint8_t> blob) {
  std::uint64_t seed = 0;
  for (std::size_t i = 0; i < std::min<std::size_t>(8, blob.size()); ++i) seed = seed << 8 | blob[i];
  return seed;
}

// Hands every decoded chunk of `table_name` to `store_chunk`, in rowid order,
// with whether every one of its rows keeps the rules. Chunks are used only when they hold exactly the rows of the table:
// any gap, excess or undecodable blob is a problem, and so is a sampled row that
// differs from its SQL row (chunk_check.hpp); the caller then drops what was
// stored and reads the rows. The row count is compared before any decoding, so
// chunks can never make more rows than the table holds.
template <typename StoreChunk>
ChunkRead read_chunks(sqlite::Database& database, const std::string& table_name, std::int64_t table_rows,
                      int table_columns, TimeColumns times, std::span<const ColumnRule> rules,
                      const std::vector<std::uint8_t>& strings_present, StoreChunk&& store_chunk) {
  int wanted_columns = rules.back().column + 1;
  if (!database.has_table("event_chunks")) return {};
  sqlite::Statement any_chunk(database, "SELECT 1 FROM event_chunks WHERE table_name = ? LIMIT 1");
  any_chunk.bind(1, std::string_view(table_name));
  if (!any_chunk.step()) return {};
  if (times.start < 0 || times.end < 0) return {true, "the table has no start_ns and end_ns to check chunks by"};
  if (auto problem = implausible_row_ids(database, table_name, table_rows, table_columns)) return {true, *problem};
  wanted_columns = std::max({wanted_columns, times.start + 1, times.end + 1});
  ChunkSampleCheck sample(database, table_name);
  sqlite::Statement chunks(database, "SELECT chunk, first_row, row_count, columns, data FROM event_chunks "
                                     "WHERE table_name = ? ORDER BY chunk");
  chunks.bind(1, std::string_view(table_name));
  ChunkDecoder decoder;
  RowValues header;
  std::int64_t next_chunk = 0, total = 0;
  while (chunks.step()) {
    header.fetch(chunks.raw());
    for (int column = 0; column < 4; ++column) {
      if (header.type(column) != RowValues::kInteger) {
        return {true, "chunk " + std::to_string(next_chunk) + " has a non-integer header"};
      }
    }
    const auto rows = header.i64(2);
    if (header.i64(0) != next_chunk || header.i64(1) != total) return {true, "chunks missing or out of order"};
    if (rows < 1 || rows > kChunkRows || rows > table_rows - total) {
      return {true, "chunk row counts do not match the table"};
    }
    const auto blob = chunks.column_blob(4);
    if (!blob) return {true, "chunk " + std::to_string(next_chunk) + " data is not a blob"};
    // Chunks of a table since rebuilt with other columns describe other rows.
    if (header.i64(3) != table_columns) return {true, "chunk column count differs from the table's"};
    if (auto problem = decoder.decode(*blob, rows, table_columns, wanted_columns); !problem.empty()) {
      return {true, "chunk " + std::to_string(next_chunk) + ": " + problem};
    }
    for (const auto row : sampled_rows(rows, sample_seed(*blob))) {
      if (!sample.matches(decoder, static_cast<std::size_t>(row), total + row + 1, wanted_columns)) {
        return {true, "row " + std::to_string(total + row + 1) + " differs from its chunk (chunks that contradict the rows)"};
      }
    }
    store_chunk(decoder, every_row_keeps(decoder, rules, strings_present));
    total += rows, ++next_chunk;
  }
  if (next_chunk == 0) return {};  // no chunk form (an older file, or a table the writer left without)
  if (total != table_rows) {
    return {true, "chunks hold " + std::to_string(total) + " rows, the table " + std::to_string(table_rows)};
  }
  return {true, {}};
}

std::vector<std::string> column_names(sqlite::Statement& all_columns) {
  std::vector<std::string> names;
  for (int column = 0; column < all_columns.column_count(); ++column) {
    names.emplace_back(sqlite3_column_name(all_columns.raw(), column));
  }
  return names;
}

// Rows are read by the declared names, so a table whose columns stand in another
// order reads the same; a column a later minor version added reads as NULL where
// the file lacks it. Any other missing column refuses the file.
std::string select_list(const std::vector<std::string>& present, std::span<const LoadedColumn> expected) {
  std::string list;
  for (const auto& column : expected) {
    const std::string name(column.name);
    const bool found = std::find(present.begin(), present.end(), name) != present.end();
    list += (list.empty() ? "" : ", ") + (found || !column.later ? name : "NULL AS " + name);
  }
  return list;
}

// Chunks hold a table's columns by position: they stand for the rows only when
// the table's columns are in schema order.
bool in_schema_order(const std::vector<std::string>& present, std::span<const LoadedColumn> expected) {
  std::size_t at = 0;
  for (const auto& column : expected) {
    if (at == present.size()) return column.later;  // an older file without the later columns
    if (present[at++] != column.name) return false;
  }
  return true;
}

// Reads the rows of `table_name` that keep every rule; the others are counted
// in `checks`, never stored, so no id or enum from the file reaches the model
// unchecked. The column chunks are read when usable, else the rows: both give
// the same values to the same rules.
// `read_rows(rows, table)` stores the rows of `rows`, a OneRow or a ChunkRows (row_stores.hpp).
template <typename Table, typename ReadRows>
void read_table(sqlite::Database& database, const TableRead& read, RowChecks& checks, Table& table,
                ReadRows&& read_rows) {
  const std::string table_name(read.name);
  const auto rules = read.rules;
  const auto columns = read.columns;
  const StageTimer timer(table_name);
  // row_bound is only an upper bound for files others wrote, so the reservation
  // is capped by the file's size rather than trusted.
  const auto rows = row_bound(database, table_name);
  const auto page_bound = database.query_int("PRAGMA page_count").value_or(0) *
                          database.query_int("PRAGMA page_size").value_or(0);
  const auto reserve = static_cast<std::size_t>(std::clamp<std::int64_t>(rows, 0, page_bound));
  bool first = true;
  std::int64_t unreported = 0;
  const auto report = [&] {
    if (checks.on_rows != nullptr && unreported > 0) (*checks.on_rows)(unreported);
    unreported = 0;
  };
  // Reserve after the first rows, so that columns this read leaves empty stay unallocated.
  const auto reserve_once = [&] {
    if (!std::exchange(first, false)) return;
    table.visit_columns([reserve](auto& column) {
      if (!column.empty()) column.reserve(reserve);
    });
  };
  const auto store = [&](const auto& values) {
    if (++unreported == kRowsPerReport) report();
    if (const auto* broken = broken_rule(values, rules, checks.strings_present)) {
      auto& entry = checks.left_out[std::string(table_name) + "." + broken->name];
      ++entry.rows, entry.reason = describe(broken->rule);
      return;
    }
    read_rows(OneRow(values), table);
    reserve_once();
  };
  // `checked`: the rules were checked over the whole chunk, and every row keeps them.
  const auto store_chunk = [&](const ChunkDecoder& decoder, bool checked) {
    if (!checked) {
      for (std::size_t row = 0; row < static_cast<std::size_t>(decoder.rows()); ++row) store(ChunkRow(decoder, row));
      return;
    }
    // The same reports as row by row: one every kRowsPerReport rows.
    for (auto left = decoder.rows(); left > 0;) {
      const auto counted = std::min(left, kRowsPerReport - unreported);
      left -= counted, unreported += counted;
      if (unreported == kRowsPerReport) report();
    }
    read_rows(ChunkRows(decoder), table);
    reserve_once();
  };
  sqlite::Statement all_columns(database, "SELECT * FROM " + table_name);
  const auto present = column_names(all_columns);
  // Prepared first even when the chunks serve: a file whose table lacks a column read here is refused either way.
  sqlite::Statement statement(database, "SELECT " + select_list(present, columns) + " FROM " + table_name);
  if (checks.chunks_allowed && !in_schema_order(present, columns)) {
    checks.problems.push_back({stat_name(StatId::load_chunks, table_name), 1, Severity::warning,
                               "column chunks not used, rows read instead: the table's columns are in another order"});
  } else if (checks.chunks_allowed) {
    const LeftOutRows left_out_before = checks.left_out;
    const auto chunked = read_chunks(database, table_name, rows, all_columns.column_count(), time_columns(all_columns),
                                     rules, checks.strings_present, store_chunk);
    if (chunked.used && chunked.problem.empty()) return report();
    if (chunked.used) {
      table = Table{}, first = true, checks.left_out = left_out_before;
      checks.problems.push_back({stat_name(StatId::load_chunks, table_name), 1, Severity::warning,
                                 "column chunks not used, rows read instead: " + chunked.problem});
    }
  }
  RowValues values;
  while (statement.step()) {
    values.fetch(statement.raw());
    store(values);
  }
  report();
}

// Reads a table the model stores column for column as declared (model_columns.hpp).
// Files older than the table lack it: nothing was recorded there.
template <typename Record, typename Table>
void read_declared_table(sqlite::Database& database, RowChecks& checks, Table& table, bool optional_columns = true) {
  const auto& declared = TableDeclaration<Record>::options;
  if (declared.since_minor > 0 && !database.has_table(TableDeclaration<Record>::name)) return;
  read_table(database, table_read<Record>(), checks, table, [optional_columns](const auto& rows, Table& into) {
    ModelTarget<Table> target{.table = into, .optional_columns = optional_columns};
    store_row<Record>(rows, target);
  });
}

// A GPU table while it loads: its rows' streams are kept as runs
// (StreamsOfRows) until the rows are grouped by stream, when the device and
// stream columns become one run per stream.
template <typename Table>
struct LoadingGpuTable {
  Table table;
  StreamsOfRows streams;

  template <typename Visitor>
  void visit_columns(Visitor&& visit) {
    table.visit_columns(visit);
  }
};

// Reads the columns `read` selects of a GPU table, as declared; contexts only when `contexts`.
template <typename Record, typename Table>
void read_gpu_table(sqlite::Database& database, const TableRead& read, RowChecks& checks,
                    LoadingGpuTable<Table>& loading, bool contexts) {
  read_table(database, read, checks, loading, [&read, contexts](const auto& rows, LoadingGpuTable<Table>& into) {
    ModelTarget<Table> target{into.table, &into.streams, read.columns.size(), contexts};
    store_row<Record>(rows, target);
  });
}

// Files before schema 1.3 have no memory_events table: their memory use was not recorded.
void load_memory_events(sqlite::Database& database, TraceModel& model, RowChecks& checks) {
  model.memory_events_table = database.has_table("memory_events");
  if (!model.memory_events_table) return;
  read_declared_table<MemoryEventRow>(database, checks, model.memory_events);
  sort_by_device_time(model.memory_events);
}

// Files before schema 1.4 have no thread_states table: the OS scheduler was not recorded.
void load_thread_states(sqlite::Database& database, TraceModel& model, RowChecks& checks) {
  read_declared_table<ThreadStateRow>(database, checks, model.thread_states);
  if (const auto overlapping = sort_thread_states_apart(model.thread_states); overlapping > 0) {
    auto& entry = checks.left_out["thread_states.overlap"];
    entry.rows += overlapping, entry.reason = "starts before the thread's previous state ends";
  }
}

// Groups a loaded GPU table's rows by (device, stream), each stream's by start.
template <typename Table>
std::vector<StreamSlice> group_by_stream(LoadingGpuTable<Table>& loading, Table& table) {
  StreamOrder order;
  const auto slices = group_streams(loading.streams, loading.table.start_ns, order);
  loading.streams = {};
  order_by_streams(loading.table, order, slices);
  table = std::move(loading.table);
  return slices;
}

void load_gpu_tables(sqlite::Database& database, TraceModel& model, const LoadOptions& options, RowChecks& checks) {
  const bool context = options.load_contexts_and_return_codes;
  LoadingGpuTable<KernelTable> kernels;
  LoadingGpuTable<MemcpyTable> memcpys;
  LoadingGpuTable<MemsetTable> memsets;
  const auto kernel_columns = options.load_kernel_launch_details ? table_read<KernelRow>() : kernel_summary_read();
  read_gpu_table<KernelRow>(database, kernel_columns, checks, kernels, context);
  read_gpu_table<MemcpyRow>(database, table_read<MemcpyRow>(), checks, memcpys, context);
  read_gpu_table<MemsetRow>(database, table_read<MemsetRow>(), checks, memsets, context);
  // Files before schema 1.2 have no collectives table: nothing is known about collectives.
  read_declared_table<CollectiveRow>(database, checks, model.collectives);
  load_memory_events(database, model, checks);
  const StageTimer timer("GPU tables: order by stream");
  model.kernel_streams = group_by_stream(kernels, model.kernels);
  model.memcpy_streams = group_by_stream(memcpys, model.memcpys);
  model.memset_streams = group_by_stream(memsets, model.memsets);
}

void load_host_tables(sqlite::Database& database, TraceModel& model, const LoadOptions& options, RowChecks& checks) {
  if (options.load_api_calls) {
    read_declared_table<ApiCallRow>(database, checks, model.api_calls, options.load_contexts_and_return_codes);
    timed("api_calls: order by start", [&] { sort_by_start(model.api_calls); });
    load_thread_states(database, model, checks);
  }
  if (options.load_syncs) {
    read_declared_table<SyncRow>(database, checks, model.syncs);
    sort_by_start(model.syncs);
  }
  if (options.load_ranges) {
    read_declared_table<RangeRow>(database, checks, model.ranges);
    sort_by_start(model.ranges);
  }
}

}  // namespace

namespace {
// Column chunks serve a load only where the file's version has them and their guards are in place.
bool chunks_allowed(TraceFile& file) {
  return file.user_version() >= kFirstChunkedVersion && chunk_guards_installed(file.database());
}

TraceModel load_once(const std::string& path, const LoadOptions& options, sqlite::OpenMode mode) {
  TraceModel model;
  model.path = path;
  std::optional<StageTimer> opening(std::in_place, "open, strings, devices");
  TraceFile file(path, mode);
  // GPU and host tables load on two connections at once: SQLite decoding is the
  // bottleneck and this machine class has two cores. Both read one commit of a
  // file another program may be writing to.
  TraceFile host_file(path, mode);
  sqlite::read_in_one_snapshot(file.database(), host_file.database());
  model.meta = file.meta();
  auto strings = file.strings();
  model.devices = file.devices();
  model.device_links = file.device_links();
  model.stats = file.stats();
  opening.reset();
  const bool chunks = chunks_allowed(file);
  const auto* on_rows = options.on_rows ? &options.on_rows : nullptr;
  RowChecks gpu_checks{strings.present, chunks, {}, {}, on_rows}, host_checks{strings.present, chunks, {}, {}, on_rows};
  auto host = std::async(std::launch::async, [&host_file, &model, &options, &host_checks] {
    timed("host tables", [&] { load_host_tables(host_file.database(), model, options, host_checks); });
  });
  timed("GPU tables", [&] { load_gpu_tables(file.database(), model, options, gpu_checks); });
  host.get();
  // What was read without locks is kept only if nothing wrote meanwhile.
  file.database().check_unchanged_since_open();
  host_file.database().check_unchanged_since_open();
  model.strings = std::move(strings.values);
  record_left_out(file.left_out(), model.stats);
  record_left_out(gpu_checks.left_out, model.stats);
  record_left_out(host_checks.left_out, model.stats);
  for (auto* checks : {&gpu_checks, &host_checks}) {
    model.stats.insert(model.stats.end(), checks->problems.begin(), checks->problems.end());
  }
  return model;
}
}  // namespace

TraceModel load_trace_model(const std::string& path, const LoadOptions& options) {
  // Readers retry a busy file: a writer committing in a loop can hold its lock
  // through one whole wait when the machine is loaded. A WAL-mode file read
  // without locks that changed meanwhile is read again with them: its writer,
  // checkpointing now and then, may change it during every unlocked read.
  constexpr int kAttempts = 3;
  for (int attempt = 1;; ++attempt) {
    try {
      return load_once(path, options, attempt == 1 ? sqlite::OpenMode::read_only : sqlite::OpenMode::read_only_locked);
    } catch (const sqlite::BusyError&) {
      if (attempt == kAttempts) throw;
    }
  }
}

namespace {
bool loads(LoadedWith loaded_with, const LoadOptions& options) {
  switch (loaded_with) {
    case LoadedWith::always: return true;
    case LoadedWith::api_calls: return options.load_api_calls;
    case LoadedWith::syncs: return options.load_syncs;
    case LoadedWith::ranges: return options.load_ranges;
    case LoadedWith::trace_file: return false;
  }
  return false;
}
}  // namespace

std::int64_t rows_to_load(const std::string& path, const LoadOptions& options) {
  TraceFile file(path);
  auto& database = file.database();
  // Capped per table so that a hostile file's ids near INT64_MAX cannot overflow the sum.
  constexpr std::int64_t kCap = std::int64_t{1} << 59;
  std::int64_t rows = 0;
  for_each_table([&]<typename Row>() {
    const std::string table(TableDeclaration<Row>::name);
    if (loads(TableDeclaration<Row>::options.loaded_with, options) && database.has_table(table)) {
      rows += std::min(row_bound(database, table), kCap);
    }
  });
  return rows;
}

KernelLaunchDetails load_kernel_launch_details(const std::string& path, const TraceModel& model) {
  const StageTimer timer("kernels: launch details");
  TraceFile file(path);
  const auto strings = file.strings();
  RowChecks checks{strings.present, chunks_allowed(file), {}, {}, nullptr};
  KernelDetailRows rows;
  read_table(file.database(), table_read<KernelRow>(), checks, rows, [&model](const auto& read, KernelDetailRows& into) {
    read.each_row([&](const auto& row) {
      into.add(model, {static_cast<std::int32_t>(row.i64(0)), row.get(2, stored::i64_or_unknown), row.i64(3),
                       row.i64(4), row.get(6, stored::string_id), row.dim3(7), row.dim3(10)});
    });
  });
  file.database().check_unchanged_since_open();
  return std::move(rows).finish(model, checks.left_out);
}

namespace {
std::optional<std::int32_t> integer_meta(const std::map<std::string, std::string>& meta, const std::string& key) {
  const auto found = meta.find(key);
  if (found == meta.end()) return std::nullopt;
  std::int32_t value = 0;
  const auto& text = found->second;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}
}  // namespace

std::optional<std::int32_t> TraceModel::rank() const { return integer_meta(meta, "rank"); }
std::optional<std::int32_t> TraceModel::world_size() const { return integer_meta(meta, "world_size"); }

std::string_view TraceModel::string(StringId id) const {
  return id < strings.size() ? std::string_view(strings[id]) : std::string_view("<unknown string>");
}

std::size_t TraceModel::event_count() const {
  return kernels.size() + memcpys.size() + memsets.size() + api_calls.size() + syncs.size() + ranges.size();
}

std::vector<std::int32_t> TraceModel::device_ids() const {
  std::vector<std::int32_t> ids;
  for (const auto& device : devices) ids.push_back(device.id);
  for (const auto* slices : {&kernel_streams, &memcpy_streams, &memset_streams}) {
    for (const auto& slice : *slices) ids.push_back(slice.device);
  }
  std::sort(ids.begin(), ids.end());
  ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
  return ids;
}

}  // namespace gpuprof::trace
