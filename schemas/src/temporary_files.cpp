#include "gpuprof/trace/temporary_files.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <filesystem>
#include <mutex>
#include <random>
#include <set>
#include <string_view>

#include "gpuprof/trace/trace_error.hpp"

namespace gpuprof {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kMarker = "gpuprof-tmp-";
constexpr std::size_t kNameMax = 255;  // NAME_MAX of Linux file systems

bool all_of(std::string_view text, int (*accept)(int)) {
  if (text.empty()) return false;
  for (const char c : text) {
    if (!accept(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// SQLite may leave its side files next to a temporary; they belong to it.
std::string_view without_sqlite_suffix(std::string_view text) {
  for (std::string_view suffix : {"-journal", "-wal", "-shm"}) {
    if (text.ends_with(suffix)) return text.substr(0, text.size() - suffix.size());
  }
  return text;
}

bool process_is_gone(pid_t pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// Each folder is swept once per process: a report writing a dozen CSV files
// into one folder lists it once.
void sweep_once(const fs::path& folder) {
  static std::mutex mutex;
  static auto* swept = new std::set<std::string>;  // never destroyed: see chunk_guard_triggers()
  {
    std::lock_guard lock(mutex);
    if (!swept->insert(folder.string()).second) return;
  }
  remove_stale_temporaries(folder.string());
}

std::string random_tag() {
  std::random_device entropy;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string tag;
  for (unsigned bits = entropy(), i = 0; i < 8; ++i, bits >>= 4) tag += kHex[bits & 15];
  return tag;
}

}  // namespace

std::optional<pid_t> temporary_owner(const std::string& file_name) {
  const std::string_view name = without_sqlite_suffix(file_name);
  const auto marker = name.rfind(kMarker);
  if (marker == std::string_view::npos || (marker > 0 && name[marker - 1] != '.')) return std::nullopt;
  const auto rest = name.substr(marker + kMarker.size());
  const auto dash = rest.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const auto pid = rest.substr(0, dash);
  if (!all_of(pid, ::isdigit) || pid.size() > 9 || !all_of(rest.substr(dash + 1), ::isalnum)) return std::nullopt;
  return static_cast<pid_t>(std::stol(std::string(pid)));
}

void remove_stale_temporaries(const std::string& folder) {
  std::error_code error;
  for (fs::directory_iterator entry(folder.empty() ? "." : folder, error), end; !error && entry != end;
       entry.increment(error)) {
    const auto owner = temporary_owner(entry->path().filename().string());
    if (!owner || *owner == ::getpid() || !process_is_gone(*owner)) continue;
    std::error_code ignored;
    fs::remove_all(entry->path(), ignored);
  }
}

std::string temporary_path_beside(const std::string& target) {
  const fs::path path(target);
  const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
  sweep_once(folder);
  // Hidden, so that listing a folder of traces never takes a half-written one for a rank.
  const auto tag = "." + std::string(kMarker) + std::to_string(::getpid()) + "-" + random_tag();
  // A target name near NAME_MAX leaves no room for the tag: its start stands for it.
  const auto stem = path.filename().string().substr(0, kNameMax - 1 - tag.size());
  const auto name = "." + stem + tag;
  return path.has_parent_path() ? (folder / name).string() : name;
}

PrivateFolder make_temporary_folder() {
  const fs::path folder = fs::temp_directory_path();
  sweep_once(folder);
  for (int attempt = 0; attempt < 100; ++attempt) {
    const auto path = (folder / (std::string(kMarker) + std::to_string(::getpid()) + "-" + random_tag())).string();
    // Registered first: a signal between mkdir and registration would leave the folder behind.
    auto registration = std::make_unique<TemporaryName>(path, true);
    if (::mkdir(path.c_str(), 0700) == 0) return {path, std::move(registration)};
    if (errno != EEXIST) break;
  }
  throw TraceError::failure(folder.string(), "cannot create a temporary folder");
}

}  // namespace gpuprof
