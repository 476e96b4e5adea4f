#include "gpuprof/trace/records.hpp"

#include <array>

namespace gpuprof::trace {
namespace {

template <std::size_t N>
std::string_view name_at(const std::array<std::string_view, N>& names, std::size_t index) {
  return index < N ? names[index] : std::string_view("unknown");
}

constexpr std::array<std::string_view, 6> kCopyKindNames = {"unknown", "HtoD", "DtoH",
                                                            "DtoD",    "HtoH", "PtoP"};
constexpr std::array<std::string_view, 6> kMemoryKindNames = {"unknown", "pageable", "pinned",
                                                              "device",  "managed",  "array"};
constexpr std::array<std::string_view, 6> kSyncTypeNames = {
    "unknown", "event", "stream_wait_event", "stream", "context", "device"};

}  // namespace

std::string_view to_string(CopyKind kind) { return name_at(kCopyKindNames, static_cast<std::size_t>(kind)); }
std::string_view to_string(MemoryKind kind) {
  return name_at(kMemoryKindNames, static_cast<std::size_t>(kind));
}
std::string_view to_string(SyncType type) { return name_at(kSyncTypeNames, static_cast<std::size_t>(type)); }
std::string_view to_string(ApiKind kind) { return kind == ApiKind::driver ? "driver" : "runtime"; }
std::string_view to_string(MemoryOperation operation) {
  return operation == MemoryOperation::free ? "free" : "alloc";
}
std::string_view to_string(ThreadRunState state) {
  return state == ThreadRunState::not_running ? "not_running" : "running";
}
std::string_view to_string(Severity severity) {
  switch (severity) {
    case Severity::warning: return "warning";
    case Severity::error: return "error";
    case Severity::info: break;
  }
  return "info";
}

std::optional<CopyKind> copy_kind_from_string(std::string_view name) {
  for (std::size_t i = 0; i < kCopyKindNames.size(); ++i) {
    if (kCopyKindNames[i] == name) return static_cast<CopyKind>(i);
  }
  return std::nullopt;
}

}  // namespace gpuprof::trace
