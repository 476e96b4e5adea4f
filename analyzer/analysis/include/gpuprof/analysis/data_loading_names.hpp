#pragma once

// Which host annotations stand for loading the next batch (DESIGN.md, "Idle causes": data_loading).
// Here, below the idle causes that read it, rather than beside the batch gaps in analyzer/rank.

#include <string_view>

namespace gpuprof::analysis {

// True for annotation names that mean "loading the next batch".
bool is_data_loading_name(std::string_view name);

}  // namespace gpuprof::analysis
