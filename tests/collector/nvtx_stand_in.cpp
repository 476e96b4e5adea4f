// Stands in for libcupti in the forwarding tests: it exports an NVTX entry
// point that remembers what it was given.

namespace {
void* last_argument = nullptr;
int calls = 0;
}  // namespace

extern "C" __attribute__((visibility("default"))) int InitializeInjectionNvtx2(void* argument) {
  last_argument = argument;
  ++calls;
  return 7;  // any non-zero value: success for NVTX, and recognisable here
}

extern "C" __attribute__((visibility("default"))) void* stand_in_last_argument() { return last_argument; }
extern "C" __attribute__((visibility("default"))) int stand_in_calls() { return calls; }
