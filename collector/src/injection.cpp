// The entry point the CUDA driver calls when CUDA_INJECTION64_PATH names this
// library. (NVTX's entry points are in nvtx_injection.cpp.)

#include <cstdlib>

#include "collector_session.hpp"

namespace {

void stop_at_exit() { gpuprof::collector::CollectorSession::instance().stop(); }

}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjection() {
  try {
    static bool initialized = false;  // the driver calls it once, but be safe
    if (initialized) return 1;
    initialized = true;
    if (gpuprof::collector::CollectorSession::instance().start()) std::atexit(stop_at_exit);
  } catch (...) {
    // Nothing may escape into the driver; the program runs unprofiled.
  }
  // 1 either way: a failed collector must not make CUDA initialization fail.
  return 1;
}
