#include "gpuprof/collector/injection_forwarding.hpp"

#include <dlfcn.h>

namespace gpuprof::collector {

std::string library_containing(const void* address) {
  Dl_info info{};
  if (address == nullptr || ::dladdr(address, &info) == 0 || info.dli_fname == nullptr) return {};
  return info.dli_fname;
}

ForwardedCall forward_injection_call(const void* address_in_target, const void* address_of_caller,
                                     const char* entry_point, void* argument) {
  const auto target = library_containing(address_in_target);
  if (target.empty()) return {0, "the library to forward " + std::string(entry_point) + " to is not loaded"};
  if (target == library_containing(address_of_caller)) {
    return {0, std::string(entry_point) + " would call itself in " + target};
  }
  // RTLD_NOLOAD: only the copy already in the process, never a second one. The
  // handle is kept: the library is a dependency of ours and stays loaded anyway.
  void* library = ::dlopen(target.c_str(), RTLD_NOW | RTLD_NOLOAD | RTLD_LOCAL);
  if (library == nullptr) return {0, "cannot reopen " + target};
  using EntryPoint = int (*)(void*);
  auto function = reinterpret_cast<EntryPoint>(::dlsym(library, entry_point));
  if (function == nullptr) return {0, target + " has no " + entry_point};
  return {function(argument), {}};
}

}  // namespace gpuprof::collector
