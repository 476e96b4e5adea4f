#include "gpuprof/job/rank_identity.hpp"

#include <fmt/format.h>

#include <charconv>
#include <map>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"

namespace gpuprof::job {
namespace {

std::optional<std::int32_t> parse_int(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  std::int32_t value = 0;
  const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (error != std::errc() || end != text->data() + text->size()) return std::nullopt;
  return value;
}

// Refuses `identity` when `field` is known on both sides and differs.
void require_same(const RankIdentity& first, const RankIdentity& identity, const std::string& what,
                  const std::string& a, const std::string& b) {
  if (a.empty() || b.empty() || a == b) return;
  throw TraceError::bad_input(identity.input, fmt::format("belongs to a different job than {} ({} '{}' vs '{}')",
                                                          first.input, what, b, a));
}

void check_same_job(const RankIdentity& first, const RankIdentity& identity) {
  const auto text = [](const std::optional<std::int32_t>& value) {
    return value ? std::to_string(*value) : std::string();
  };
  require_same(first, identity, "world size", text(first.world_size), text(identity.world_size));
  require_same(first, identity, "job id", first.job_id, identity.job_id);
  // Only the collector records the profiled command; synthetic and imported
  // files record the command that generated them, which names the rank.
  if (first.source_format == "collector" && identity.source_format == "collector") {
    require_same(first, identity, "command line", first.command_line, identity.command_line);
  }
}

}  // namespace

RankIdentity read_identity(const std::string& input, const std::string& trace_path) {
  trace::TraceFile file(trace_path);
  const auto meta = file.meta();
  const auto value = [&](const char* key) -> std::optional<std::string> {
    const auto found = meta.find(key);
    return found == meta.end() ? std::nullopt : std::optional<std::string>(found->second);
  };
  RankIdentity identity;
  identity.input = input;
  identity.trace_path = trace_path;
  identity.rank = parse_int(value("rank"));
  identity.world_size = parse_int(value("world_size"));
  identity.source_format = value("source_format").value_or("");
  identity.command_line = value("command_line").value_or("");
  identity.job_id = value("job_id").value_or("");
  identity.host_name = value("host_name").value_or("");
  return identity;
}

std::vector<std::int32_t> assign_ranks(const std::vector<RankIdentity>& identities) {
  if (identities.size() == 1) return {identities.front().rank.value_or(0)};
  std::vector<std::int32_t> ranks;
  std::map<std::int32_t, const RankIdentity*> seen;
  for (const auto& identity : identities) {
    if (!identity.rank) {
      throw TraceError::bad_input(identity.input, "has no rank in its meta, so its place among several rank "
                                                  "files is ambiguous");
    }
    check_same_job(identities.front(), identity);
    const auto [where, inserted] = seen.emplace(*identity.rank, &identity);
    if (!inserted) {
      throw TraceError::bad_input(identity.input, fmt::format("rank {} appears in more than one trace file "
                                                              "(also {})", *identity.rank, where->second->input));
    }
    if (identity.world_size && *identity.rank >= *identity.world_size) {
      throw TraceError::bad_input(identity.input, fmt::format("rank {} is outside world size {}", *identity.rank,
                                                              *identity.world_size));
    }
    ranks.push_back(*identity.rank);
  }
  return ranks;
}

}  // namespace gpuprof::job
