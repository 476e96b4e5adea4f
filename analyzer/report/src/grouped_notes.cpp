#include "grouped_notes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

namespace gpuprof::report {
namespace {

bool digit(const std::string& text, std::size_t at) {
  return at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])) != 0;
}

// A note cut into numbers ("12", "0.5") and runs of the rest, so that notes are compared by their words.
std::vector<std::string> pieces_of(const std::string& text) {
  std::vector<std::string> pieces;
  for (std::size_t i = 0; i < text.size();) {
    auto end = i;
    if (digit(text, i)) {
      while (digit(text, end)) ++end;
      if (end + 1 < text.size() && text[end] == '.' && digit(text, end + 1)) {
        for (++end; digit(text, end);) ++end;
      }
    } else {
      while (end < text.size() && !digit(text, end)) ++end;
    }
    pieces.push_back(text.substr(i, end - i));
    i = end;
  }
  return pieces;
}

std::string words_of(const std::vector<std::string>& pieces) {
  std::string words;
  for (const auto& piece : pieces) words += std::isdigit(static_cast<unsigned char>(piece[0])) != 0 ? "#" : piece;
  return words;
}

struct Group {
  bool warning = false;
  bool job = false;
  std::string words;
  std::vector<std::int32_t> ranks;
  std::vector<std::vector<std::string>> pieces;  // one per member, in rank order
};

// The members' text: a number they share once, numbers that differ listed in rank order ("0/1/2").
std::string merged_text(const Group& group) {
  std::string text;
  const auto& first = group.pieces.front();
  for (std::size_t i = 0; i < first.size(); ++i) {
    std::vector<std::string> values;
    for (const auto& member : group.pieces) values.push_back(member[i]);
    const bool same = std::all_of(values.begin(), values.end(), [&](const auto& v) { return v == values.front(); });
    if (same) {
      text += first[i];
      continue;
    }
    for (std::size_t v = 0; v < values.size(); ++v) text += (v == 0 ? "" : "/") + values[v];
  }
  return text;
}

void add(std::vector<Group>& groups, bool warning, bool job, std::int32_t rank, const std::string& text) {
  auto pieces = pieces_of(text);
  const auto words = words_of(pieces);
  for (auto& group : groups) {
    // The job's notes are one each; a rank's second note of the same words joins a group of its own.
    if (job || group.warning != warning || group.job != job || group.words != words) continue;
    if (std::find(group.ranks.begin(), group.ranks.end(), rank) != group.ranks.end()) continue;
    group.ranks.push_back(rank);
    group.pieces.push_back(std::move(pieces));
    return;
  }
  groups.push_back({warning, job, words, {rank}, {std::move(pieces)}});
}

}  // namespace

std::string rank_ranges(std::vector<std::int32_t> ranks) {
  std::sort(ranks.begin(), ranks.end());
  std::string text;
  for (std::size_t i = 0; i < ranks.size();) {
    auto end = i;
    while (end + 1 < ranks.size() && ranks[end + 1] == ranks[end] + 1) ++end;
    text += (text.empty() ? "" : ", ") + (end > i + 1 ? fmt::format("{}-{}", ranks[i], ranks[end])
                                          : end == i  ? std::to_string(ranks[i])
                                                      : fmt::format("{}, {}", ranks[i], ranks[end]));
    i = end + 1;
  }
  return text;
}

std::vector<GroupedNote> grouped_notes(const ReportInput& input) {
  std::vector<Group> groups;
  for (const auto& rank : input.ranks) {
    for (const auto& warning : rank.warnings) add(groups, true, false, rank.rank, warning);
  }
  for (const auto& rank : input.ranks) {
    for (const auto& notice : rank.notices) add(groups, false, false, rank.rank, notice);
  }
  if (input.job) {
    for (const auto& notice : input.job->notices) add(groups, false, true, 0, notice);
  }
  std::vector<GroupedNote> notes;
  for (const auto& group : groups) {
    std::string ranks;
    if (!group.job && input.ranks.size() > 1) {
      ranks = fmt::format("rank{} {}", group.ranks.size() == 1 ? "" : "s", rank_ranges(group.ranks));
    }
    notes.push_back({group.warning, ranks, merged_text(group)});
  }
  return notes;
}

}  // namespace gpuprof::report
