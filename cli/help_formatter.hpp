#pragma once

// CLI11's help with every line within the terminal width (120 columns): descriptions are wrapped at spaces
// and continue under their column, as the reports wrap their prose.

#include <CLI/CLI.hpp>

#include <memory>

namespace gpuprof::cli {

std::shared_ptr<CLI::Formatter> wrapping_help_formatter();

}  // namespace gpuprof::cli
