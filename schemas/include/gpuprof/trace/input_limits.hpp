#pragma once

#include <cstddef>

namespace gpuprof {

// The longest string gpuprof takes from any input file (a name, a meta value,
// a JSON string). Composable-kernel names run to thousands of characters, so
// real files stay far below it; past it a row is left out and counted (SQLite
// inputs) or the file is refused (JSON, whose parser must hold the string whole).
inline constexpr std::size_t kMaxStringBytes = std::size_t{16} << 20;

}  // namespace gpuprof
