#include "foreign_strings.hpp"

#include <sqlite3.h>

#include "gpuprof/trace/input_limits.hpp"

namespace gpuprof::importers {

ForeignStrings::ForeignStrings(sqlite::Database& database, ImportSink& sink, std::string_view table,
                               std::string_view id_column)
    : lookup_(database, "SELECT value FROM " + std::string(table) + " WHERE " + std::string(id_column) + " = ?"),
      sink_(sink) {}

std::optional<std::string> ForeignStrings::text(std::int64_t foreign_id) {
  lookup_.reset();
  lookup_.bind(1, foreign_id);
  std::optional<std::string> value;
  if (lookup_.step() && !lookup_.is_null(0)) {
    if (static_cast<std::size_t>(sqlite3_column_bytes(lookup_.raw(), 0)) <= kMaxStringBytes) {
      value = std::string(lookup_.column_text(0));
    } else {
      // Left out like a missing string: the rows naming it are counted where they are read.
      sink_.count(StatId::import_string_too_long, trace::Severity::warning, 1,
                  "strings longer than " + std::to_string(kMaxStringBytes >> 20) + " MiB left out");
    }
  }
  lookup_.reset();
  return value;
}

std::optional<trace::StringId> ForeignStrings::find(std::int64_t foreign_id) {
  if (const auto found = cache_.find(foreign_id); found != cache_.end()) return found->second;
  const auto value = text(foreign_id);
  if (!value) return std::nullopt;
  const auto id = sink_.intern(*value);
  cache_.emplace(foreign_id, id);
  return id;
}

std::optional<trace::KernelName> ForeignStrings::kernel_name(std::int64_t reported_id,
                                                             std::optional<std::int64_t> demangled_id) {
  const KernelKey key{reported_id, demangled_id};
  if (const auto found = kernel_names_.find(key); found != kernel_names_.end()) return found->second;
  const auto reported = text(reported_id);
  if (!reported) return std::nullopt;
  const auto demangled = demangled_id ? text(*demangled_id) : std::nullopt;
  const auto name = sink_.intern_kernel_name(*reported, demangled.value_or(std::string()));
  kernel_names_.emplace(key, name);
  return name;
}

}  // namespace gpuprof::importers
