#pragma once

// Checks that a Markdown document's pipe tables keep their columns whatever their cells hold.

#include <string>

namespace gpuprof::testing {

// The first table row whose unescaped pipes differ in number from its table's header row (a name with a '|'
// that split a cell); empty when every row keeps its columns.
std::string first_row_with_other_columns(const std::string& markdown);

}  // namespace gpuprof::testing
