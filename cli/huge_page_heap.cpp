#include "huge_page_heap.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>

namespace gpuprof::cli {
namespace {

constexpr const char* kTunables = "GLIBC_TUNABLES";
constexpr const char* kRestarted = "GPUPROF_HUGE_PAGE_HEAP";

std::string thp_setting() {
  std::ifstream file("/sys/kernel/mm/transparent_hugepage/enabled");
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

}  // namespace

bool wants_huge_page_heap(std::string_view command, const char* user_tunables, const char* restarted_marker,
                          std::string_view thp_setting) {
  static constexpr std::array<std::string_view, 6> kReaders = {"report", "compare", "export",
                                                               "import", "info",    "predict"};
  if (std::find(kReaders.begin(), kReaders.end(), command) == kReaders.end()) return false;
  if (user_tunables != nullptr || restarted_marker != nullptr) return false;
  return !thp_setting.empty() && thp_setting.find("[never]") == std::string_view::npos;
}

void restart_with_huge_page_heap(int argc, char** argv) {
  if (std::getenv(kRestarted) != nullptr) {
    unsetenv(kRestarted);
    unsetenv(kTunables);  // set by the start before this one, never by the user (see wants_huge_page_heap)
    return;
  }
  if (argc < 2 || !wants_huge_page_heap(argv[1], std::getenv(kTunables), nullptr, thp_setting())) return;
  setenv(kTunables, "glibc.malloc.hugetlb=1", 1);
  setenv(kRestarted, "1", 1);
  execv("/proc/self/exe", argv);
  unsetenv(kTunables);  // the restart failed: run as we are
  unsetenv(kRestarted);
}

}  // namespace gpuprof::cli
