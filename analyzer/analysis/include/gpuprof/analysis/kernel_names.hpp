#pragma once

// Kernel names for tables (DESIGN.md, "Kernel names"): the full name
// demangled when a file still holds `_Z…`, and a short base name like nsys's
// shortName. The one place both are made; CLI reports and the GUI call it.

#include <string>
#include <string_view>

namespace gpuprof::analysis {

// `name` demangled when it is still mangled, else unchanged.
std::string readable_kernel_name(std::string_view name);

// The function name without namespaces, template arguments, parameter list or
// return type: `void at::native::vectorized_elementwise_kernel<4, F<float>>(int, F)`
// gives `vectorized_elementwise_kernel`. Names that are not C++ signatures come
// back unchanged; a name that leaves nothing behind comes back whole.
std::string short_kernel_name(std::string_view name);

}  // namespace gpuprof::analysis
