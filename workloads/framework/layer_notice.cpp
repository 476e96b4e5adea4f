#include "layer_notice.hpp"

#include <mutex>
#include <set>

namespace gpuprof::workloads {

bool note_once(const std::string& message, std::FILE* stream) {
  static std::mutex mutex;
  static std::set<std::string> given;
  const std::lock_guard lock(mutex);
  if (!given.insert(message).second) return false;
  std::fprintf(stream, "gpuprof-workload: note: %s\n", message.c_str());
  std::fflush(stream);
  return true;
}

}  // namespace gpuprof::workloads
