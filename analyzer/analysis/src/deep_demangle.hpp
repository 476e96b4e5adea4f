#pragma once

// The fallbacks behind readable_kernel_name and short_kernel_name for names the
// C++ runtime's demangler gives up on (its recursion limit stops it on
// composable-kernel and CUTLASS names of thousands of characters).

#include <optional>
#include <string>
#include <string_view>

namespace gpuprof::analysis {

// libiberty's demangler without its recursion limit, when gpuprof was built with libiberty; nullopt when it
// was not, when the name is too long to risk the stack, or when it does not demangle either.
std::optional<std::string> demangle_without_recursion_limit(std::string_view mangled);

// The innermost identifier of an Itanium-mangled function name (`_ZN2ns6KernelI…EEvT_` gives `Kernel`), the
// short name when nothing demangles it; empty when none is found.
std::string innermost_identifier(std::string_view mangled);

}  // namespace gpuprof::analysis
