#include "nvprof_markers.hpp"

#include <algorithm>
#include <cstring>
#include <map>
#include <unordered_map>
#include <vector>

#include "sqlite_columns.hpp"

namespace gpuprof::importers {
namespace {

using trace::Severity;

// CUpti_ActivityFlag bits of marker records (cupti_activity.h).
constexpr std::int64_t kInstantaneous = 1 << 0;
constexpr std::int64_t kStart = 1 << 1;
constexpr std::int64_t kEnd = 1 << 2;
constexpr std::int64_t kSynchronisation = (1 << 3) | (1 << 4) | (1 << 5) | (1 << 6);

// CUpti_ActivityObjectKind values whose objectId starts with {processId, threadId}.
constexpr std::int64_t kObjectProcess = 1;
constexpr std::int64_t kObjectThread = 2;

struct Owner {
  std::optional<std::int64_t> process_id, thread_id;
  auto operator<=>(const Owner&) const = default;
};

// objectId is CUpti_ActivityObjectKindId stored as a 12-byte blob: for process
// and thread markers, little-endian uint32 process id then thread id. A blob too
// short for its kind gives no owner (such ranges pair by id only).
Owner owner_of(sqlite3_stmt* row, int kind_column, int blob_column) {
  const std::int64_t kind = column_int(row, kind_column);
  if (kind != kObjectProcess && kind != kObjectThread) return {};
  const auto* bytes = static_cast<const unsigned char*>(sqlite3_column_blob(row, blob_column));
  const int needed = kind == kObjectThread ? 8 : 4;
  if (bytes == nullptr || sqlite3_column_bytes(row, blob_column) < needed) return {};
  const auto word = [&](int first) {
    return static_cast<std::int64_t>(bytes[first]) | static_cast<std::int64_t>(bytes[first + 1]) << 8 |
           static_cast<std::int64_t>(bytes[first + 2]) << 16 | static_cast<std::int64_t>(bytes[first + 3]) << 24;
  };
  Owner owner{word(0), std::nullopt};
  if (kind == kObjectThread) owner.thread_id = word(4);
  return owner;
}

class MarkerPairing {
 public:
  MarkerPairing(sqlite::Database& database, ForeignStrings& strings, ImportSink& sink)
      : database_(database), strings_(strings), sink_(sink) {}

  void run() {
    read_categories();
    const bool has_domain = has_column(database_, "CUPTI_ACTIVITY_KIND_MARKER", "domain");
    sqlite::Statement query(database_, std::string("SELECT flags, timestamp, id, objectKind, objectId, name, ") +
                                           (has_domain ? "domain" : "NULL") +
                                           " FROM CUPTI_ACTIVITY_KIND_MARKER ORDER BY timestamp, _id_");
    while (query.step()) take(query.raw());
    if (!open_.empty()) {
      sink_.count(StatId::import_nvprof_unclosed_nvtx_ranges, Severity::warning,
                  static_cast<std::int64_t>(open_.size()),
                  "NVTX ranges started but never ended");
    }
  }

 private:
  struct OpenRange {
    trace::RangeRow row;
    Owner owner;
  };

  void read_categories() {
    if (!database_.has_table("CUPTI_ACTIVITY_KIND_MARKER_DATA")) return;
    sqlite::Statement query(database_, "SELECT id, category FROM CUPTI_ACTIVITY_KIND_MARKER_DATA");
    while (query.step()) categories_.emplace(query.column_int(0), query.column_int(1));
  }

  void take(sqlite3_stmt* row) {
    const std::int64_t flags = column_int(row, 0);
    const auto timestamp = column_optional(row, 1);
    if (!timestamp || *timestamp <= 0) {
      sink_.count(StatId::import_nvprof_invalid_times_nvtx_markers, Severity::warning, 1,
                  "NVTX marker records without a timestamp");
      return;
    }
    if (flags & kSynchronisation) {
      sink_.count(StatId::import_nvprof_nvtx_sync_markers, Severity::info, 1,
                  "NVTX synchronisation markers (not ranges; not imported)");
    } else if (flags & kStart) {
      start(row, *timestamp);
    } else if (flags & kEnd) {
      end(column_int(row, 2), owner_of(row, 3, 4), *timestamp);
    } else if (flags & kInstantaneous) {
      sink_.count(StatId::import_nvprof_nvtx_marks, Severity::info, 1,
                  "instantaneous NVTX marks (points, not ranges; not imported)");
    } else {
      sink_.count(StatId::import_nvprof_unknown_marker_flags, Severity::warning, 1,
                  "marker records with no start, end or mark flag");
    }
  }

  void start(sqlite3_stmt* row, std::int64_t timestamp) {
    const std::int64_t id = column_int(row, 2);
    OpenRange range;
    range.owner = owner_of(row, 3, 4);
    range.row.process_id = range.owner.process_id;
    range.row.thread_id = range.owner.thread_id;
    range.row.start_ns = timestamp;
    range.row.name = name_of(column_int(row, 5));
    if (const auto domain = column_optional(row, 6); domain && *domain != 0) range.row.domain = strings_.find(*domain);
    if (const auto found = categories_.find(id); found != categories_.end() && found->second != 0) {
      range.row.category = found->second;
    }
    if (!open_.emplace(id, range).second) {
      sink_.count(StatId::import_nvprof_duplicate_nvtx_ids, Severity::warning, 1,
                  "NVTX range starts reusing the id of a range still open (the later one is dropped)");
      return;
    }
    stacks_[range.owner].push_back(id);
  }

  void end(std::int64_t id, const Owner& owner, std::int64_t timestamp) {
    auto found = open_.find(id);
    if (found == open_.end()) {
      const auto stack = stacks_.find(owner);
      if (stack != stacks_.end() && !stack->second.empty()) found = open_.find(stack->second.back());
    }
    if (found == open_.end()) {
      sink_.count(StatId::import_nvprof_unmatched_nvtx_ends, Severity::warning, 1,
                  "NVTX range ends that close no range");
      return;
    }
    OpenRange range = std::move(found->second);
    auto& stack = stacks_[range.owner];
    if (const auto entry = std::find(stack.begin(), stack.end(), found->first); entry != stack.end()) {
      stack.erase(entry);
    }
    open_.erase(found);
    range.row.end_ns = timestamp;
    sink_.add(range.row);
  }

  // StringTable id 0 is nvprof's "-- null --" placeholder.
  trace::StringId name_of(std::int64_t foreign_id) {
    if (foreign_id != 0) {
      if (const auto found = strings_.find(foreign_id)) return *found;
      sink_.count(StatId::import_nvprof_missing_string, Severity::warning, 1,
                  "rows naming a StringTable id that is absent");
    }
    return sink_.intern("<unnamed>");
  }

  sqlite::Database& database_;
  ForeignStrings& strings_;
  ImportSink& sink_;
  std::unordered_map<std::int64_t, std::int64_t> categories_;
  std::unordered_map<std::int64_t, OpenRange> open_;
  std::map<Owner, std::vector<std::int64_t>> stacks_;  // ids of each owner's open ranges, innermost last
};

}  // namespace

void import_nvprof_markers(sqlite::Database& database, ForeignStrings& strings, ImportSink& sink) {
  MarkerPairing(database, strings, sink).run();
}

}  // namespace gpuprof::importers
