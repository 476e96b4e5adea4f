// Stands in for a CUDA program on machines without a GPU: it loads the library
// named by CUDA_INJECTION64_PATH and calls InitializeInjection, as the CUDA
// driver does during cuInit, then exits with the code given as argv[1].

#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>

int main(int argc, char** argv) {
  const char* path = std::getenv("CUDA_INJECTION64_PATH");
  if (path == nullptr) return 90;
  void* library = ::dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == nullptr) {
    std::fprintf(stderr, "dlopen: %s\n", ::dlerror());
    return 91;
  }
  using Initialize = int (*)();
  auto initialize = reinterpret_cast<Initialize>(::dlsym(library, "InitializeInjection"));
  if (initialize == nullptr || initialize() != 1) return 92;
  return argc > 1 ? std::atoi(argv[1]) : 0;
}
