#include "gpuprof/job/rank_identity.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <map>

#include "gpuprof/trace/trace_error.hpp"
#include "gpuprof/trace/trace_file.hpp"

namespace gpuprof::job {
namespace {

template <typename Int = std::int32_t>
std::optional<Int> parse_int(const std::optional<std::string>& text) {
  if (!text) return std::nullopt;
  Int value = 0;
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

// The file behind a path however it is spelled; the path itself when it cannot be resolved.
std::string file_key(const std::string& path) {
  std::error_code error;
  const auto canonical = std::filesystem::canonical(path, error);
  return error ? path : canonical.string();
}

// Two files of one process cannot be two ranks: the same file named twice, or
// the same pid on the same host (or both hosts unknown) at overlapping times.
// Ranks in separate containers can share a pid, so with `trust_pids` false
// (the user set --ranks) only the first test applies.
void check_distinct_processes(const std::vector<RankIdentity>& identities, bool trust_pids) {
  std::vector<std::string> keys;
  for (const auto& identity : identities) keys.push_back(file_key(identity.input));
  for (std::size_t i = 0; i < identities.size(); ++i) {
    const auto& b = identities[i];
    for (std::size_t j = 0; j < i; ++j) {
      const auto& a = identities[j];
      if (keys[i] == keys[j]) throw TraceError::bad_input(b.input, fmt::format("is the same file as {}", a.input));
      if (!trust_pids || !a.pid || !b.pid || *a.pid != *b.pid || a.host_name != b.host_name) continue;
      if (!a.start_ns || !a.end_ns || !b.start_ns || !b.end_ns) continue;
      if (*a.start_ns <= *b.end_ns && *b.start_ns <= *a.end_ns) {
        throw TraceError::bad_input(b.input, fmt::format("comes from the same process as {} (pid {}, overlapping "
                                                         "times); if they are two ranks (separate containers), "
                                                         "set --ranks",
                                                         a.input, *a.pid));
      }
    }
  }
}

void check_rank(const RankIdentity& identity, std::int32_t rank,
                std::map<std::int32_t, const RankIdentity*>& seen) {
  if (rank < 0) throw TraceError::bad_input(identity.input, fmt::format("rank {} is negative", rank));
  const auto [where, inserted] = seen.emplace(rank, &identity);
  if (!inserted) {
    throw TraceError::bad_input(identity.input, fmt::format("rank {} appears in more than one trace file "
                                                            "(also {})", rank, where->second->input));
  }
  if (identity.world_size && rank >= *identity.world_size) {
    throw TraceError::bad_input(identity.input, fmt::format("rank {} is outside world size {}", rank,
                                                            *identity.world_size));
  }
}

// Where no file names its rank, the order the files were given in does.
RankAssignment ranks_from_position(const std::vector<RankIdentity>& identities) {
  check_distinct_processes(identities, true);
  RankAssignment result;
  for (std::size_t i = 0; i < identities.size(); ++i) {
    result.ranks.push_back(static_cast<std::int32_t>(i));
    result.notices.push_back(fmt::format("{} has no rank in its meta; it is rank {} from its position among the "
                                         "files given (set ranks with --ranks)", identities[i].input, i));
  }
  return result;
}

RankAssignment ranks_given(const std::vector<RankIdentity>& identities, const std::vector<std::int32_t>& given) {
  if (given.size() != identities.size()) {
    throw TraceError::bad_input(identities.front().input,
                                fmt::format("--ranks names {} ranks for {} trace files", given.size(),
                                            identities.size()));
  }
  check_distinct_processes(identities, false);
  RankAssignment result{given, {}};
  for (std::size_t i = 0; i < identities.size(); ++i) {
    const auto& identity = identities[i];
    if (identity.rank != given[i]) {
      result.notices.push_back(identity.rank ? fmt::format("{} is rank {} from --ranks (its meta says {})",
                                                           identity.input, given[i], *identity.rank)
                                             : fmt::format("{} is rank {} from --ranks", identity.input, given[i]));
    }
  }
  return result;
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
  identity.pid = parse_int<std::int64_t>(value("pid"));
  identity.start_ns = parse_int<std::int64_t>(value("start_ns"));
  identity.end_ns = parse_int<std::int64_t>(value("end_ns"));
  return identity;
}

RankAssignment assign_ranks(const std::vector<RankIdentity>& identities, const std::vector<std::int32_t>& given) {
  if (identities.empty()) return {};
  for (const auto& identity : identities) check_same_job(identities.front(), identity);
  RankAssignment result;
  if (!given.empty()) {
    result = ranks_given(identities, given);
  } else if (identities.size() == 1) {
    return {{identities.front().rank.value_or(0)}, {}};
  } else if (std::none_of(identities.begin(), identities.end(), [](const auto& id) { return id.rank.has_value(); })) {
    result = ranks_from_position(identities);
  } else {
    for (const auto& identity : identities) {
      if (!identity.rank) {
        throw TraceError::bad_input(identity.input, "has no rank in its meta while other files have one, so its "
                                                    "place among them is ambiguous (set ranks with --ranks)");
      }
      result.ranks.push_back(*identity.rank);
    }
  }
  std::map<std::int32_t, const RankIdentity*> seen;
  for (std::size_t i = 0; i < identities.size(); ++i) check_rank(identities[i], result.ranks[i], seen);
  return result;
}

}  // namespace gpuprof::job
