#include "gpuprof/trace/symbol_names.hpp"

#include <cxxabi.h>

#include <cstdlib>
#include <memory>

namespace gpuprof::trace {
namespace {

// libstdc++'s demangler recurses per nesting level; a name longer than this is
// no real kernel and is kept as it is rather than risk the stack.
constexpr std::size_t kLongestDemangledInput = 64 * 1024;

struct FreeDeleter {
  void operator()(char* text) const { std::free(text); }
};

}  // namespace

bool is_mangled_symbol(std::string_view name) {
  return name.starts_with("_Z") || name.starts_with("__Z");
}

std::string demangle_symbol(std::string_view name) {
  if (!is_mangled_symbol(name) || name.size() > kLongestDemangledInput) return std::string(name);
  // __cxa_demangle needs a terminated string; the name may hold a NUL, which it must not reach.
  if (name.find('\0') != std::string_view::npos) return std::string(name);
  const std::string input(name.starts_with("__Z") ? name.substr(1) : name);
  int status = 0;
  std::unique_ptr<char, FreeDeleter> result(abi::__cxa_demangle(input.c_str(), nullptr, nullptr, &status));
  if (status != 0 || result == nullptr) return std::string(name);
  return std::string(result.get());
}

}  // namespace gpuprof::trace
