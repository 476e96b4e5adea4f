#pragma once

// One write a TraceWriter asks of its file, so that writes can be queued and
// applied in order by another thread (background_writes.hpp).

#include <string>
#include <variant>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::trace {

struct InternedString {
  StringId id = 0;
  std::string text;
};
struct MetaEntry {
  std::string key, value;
};
struct CommitPoint {};

template <typename... Rows>
std::variant<InternedString, MetaEntry, Rows..., StatRow, CommitPoint> write_op_of(RowTypes<Rows...>);

// Every write: a string, a meta entry, a row of any written table, a stat, a commit.
using WriteOp = decltype(write_op_of(WrittenRows{}));

}  // namespace gpuprof::trace
