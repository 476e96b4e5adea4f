#pragma once

// Kernel names as people read them (DESIGN.md, "Kernel names"). CUPTI, nvprof
// and Nsight Systems hand over Itanium-mangled C++ names (`_Z…`); traces store
// the demangled form and keep the mangled one beside it.

#include <string>
#include <string_view>

namespace gpuprof::trace {

// True for an Itanium C++ ABI mangled name (`_Z…`, also the `__Z…` spelling).
bool is_mangled_symbol(std::string_view name);

// The demangled name, or `name` unchanged when it is not mangled or does not
// demangle (a truncated or hostile string is never an error).
std::string demangle_symbol(std::string_view name);

}  // namespace gpuprof::trace
