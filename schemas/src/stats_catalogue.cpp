#include "gpuprof/trace/stats_catalogue.hpp"

#include <array>

namespace gpuprof::trace {
namespace {

constexpr std::array kCatalogue = {
#define GPUPROF_STAT_INFO(id, name, keyed, severity, data_loss, description) \
  StatInfo{StatId::id, name, keyed, Severity::severity, data_loss, description},
    GPUPROF_TRACE_STATS(GPUPROF_STAT_INFO)
#undef GPUPROF_STAT_INFO
};

// The enum is generated from the same list, so position and id agree; checked here once.
constexpr bool ids_match_positions() {
  for (std::size_t index = 0; index < kCatalogue.size(); ++index) {
    if (static_cast<std::size_t>(kCatalogue[index].id) != index) return false;
  }
  return true;
}
static_assert(ids_match_positions());

}  // namespace

std::span<const StatInfo> stats_catalogue() { return kCatalogue; }

const StatInfo& stat_info(StatId id) { return kCatalogue[static_cast<std::size_t>(id)]; }

std::string stat_name(StatId id) { return std::string(stat_info(id).name); }

std::string stat_name(StatId id, std::string_view key) {
  std::string name(stat_info(id).name);
  name += key;
  return name;
}

StatName::StatName(StatId id) : text_(stat_name(id)) {}
StatName::StatName(StatId id, std::string_view key) : text_(stat_name(id, key)) {}

const StatInfo* find_stat(std::string_view name) {
  const StatInfo* family = nullptr;
  for (const auto& info : kCatalogue) {
    if (!info.keyed && info.name == name) return &info;
    // The longest prefix wins, so that a family inside another family is told apart.
    if (info.keyed && name.size() > info.name.size() && name.starts_with(info.name) &&
        (family == nullptr || info.name.size() > family->name.size())) {
      family = &info;
    }
  }
  return family;
}

bool reports_data_loss(const StatRow& row) {
  if (row.value <= 0) return false;
  if (const auto* info = find_stat(row.name)) return info->data_loss;
  return row.name.find("dropped") != std::string::npos;
}

std::string_view stat_description(std::string_view name) {
  if (const auto* info = find_stat(name)) return info->description;
  return "not in this gpuprof's catalogue of stats (written by another version or tool)";
}

}  // namespace gpuprof::trace
