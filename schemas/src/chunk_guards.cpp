#include "gpuprof/trace/chunk_guards.hpp"

#include "event_chunks.hpp"

namespace gpuprof::trace {
namespace {

struct Event {
  const char* name;     // in the trigger's name
  const char* keyword;  // in its SQL
};
constexpr Event kEvents[] = {{"insert", "INSERT"}, {"update", "UPDATE"}, {"delete", "DELETE"}};

// SQLite stores a CREATE TRIGGER text as given when it has single spaces, no
// IF NOT EXISTS and no trailing semicolon, so this text is what a file holds.
sqlite::StoredCode guard(const std::string& table, const Event& event) {
  const std::string name = "gpuprof_chunks_stale_after_" + std::string(event.name) + "_on_" + table;
  return {name, "CREATE TRIGGER " + name + " AFTER " + event.keyword + " ON " + table +
                    " BEGIN DELETE FROM event_chunks; END"};
}

}  // namespace

const std::vector<sqlite::StoredCode>& chunk_guard_triggers() {
  // Never destroyed: the collector may finish a trace (and install these) on its timer thread while the
  // program's exit runs the destructors of statics; a destroyed list crashed the program (issue 27's stand-in).
  static const auto* triggers = [] {
    auto* all = new std::vector<sqlite::StoredCode>;
    for (const auto& table : chunked_tables()) {
      for (const auto& event : kEvents) all->push_back(guard(table, event));
    }
    return all;
  }();
  return *triggers;
}

void install_chunk_guards(sqlite::Database& database) {
  for (const auto& trigger : chunk_guard_triggers()) {
    database.execute("DROP TRIGGER IF EXISTS " + trigger.name);
    database.execute(trigger.sql);
  }
}

bool chunk_guards_installed(sqlite::Database& database) {
  const auto present = database.query_int(
      "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'gpuprof\\_chunks\\_stale\\_%' "
      "ESCAPE '\\'");
  return present == static_cast<std::int64_t>(chunk_guard_triggers().size());
}

}  // namespace gpuprof::trace
