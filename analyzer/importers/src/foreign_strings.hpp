#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>

#include "gpuprof/importers/import_sink.hpp"
#include "gpuprof/trace/sqlite_database.hpp"

namespace gpuprof::importers {

// Maps string ids of a foreign SQLite file (nsys StringIds, nvprof StringTable)
// to interned trace strings, looking each one up once: only names that rows use
// are copied, so a file full of NVTX payload strings costs nothing extra.
class ForeignStrings {
 public:
  ForeignStrings(sqlite::Database& database, ImportSink& sink, std::string_view table,
                 std::string_view id_column);

  // The interned string, or nullopt when the id is not in the table.
  std::optional<trace::StringId> find(std::int64_t foreign_id);
  // The text itself (for names that are rewritten before interning).
  std::optional<std::string> text(std::int64_t foreign_id);
  // A kernel name interned as traces store it (ImportSink::intern_kernel_name):
  // `reported_id` names the source's name, `demangled_id` the source's own
  // demangling where it has one. Nullopt when `reported_id` is not in the table.
  std::optional<trace::KernelName> kernel_name(std::int64_t reported_id,
                                               std::optional<std::int64_t> demangled_id = std::nullopt);

 private:
  sqlite::Statement lookup_;
  ImportSink& sink_;
  std::unordered_map<std::int64_t, trace::StringId> cache_;
  // Looked up once per kernel row, so hashed rather than ordered.
  struct KernelKey {
    std::int64_t reported;
    std::optional<std::int64_t> demangled;
    friend bool operator==(const KernelKey&, const KernelKey&) = default;
  };
  struct KernelKeyHash {
    std::size_t operator()(const KernelKey& key) const {
      const auto second = key.demangled ? static_cast<std::uint64_t>(*key.demangled) : 0x9e3779b97f4a7c15ULL;
      return std::hash<std::uint64_t>()(static_cast<std::uint64_t>(key.reported) * 0x100000001b3ULL ^ second);
    }
  };
  std::unordered_map<KernelKey, trace::KernelName, KernelKeyHash> kernel_names_;
};

}  // namespace gpuprof::importers
