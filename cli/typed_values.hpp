#pragma once

// CLI11 reads any argument written `[a,b]` as the list a, b: `report '[b]'`
// analysed a file named `b` and `--comm-pattern '[nccl]'` became `nccl`. A
// path or a pattern must stay as typed, so such arguments are marked before
// CLI11 sees them (it splits only what starts with '[') and unmarked by a
// transform on every option, before any other use of the value.

#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace gpuprof::cli {

// argv with every `[...]` argument marked; the marks are undone by keep_values_as_typed.
std::vector<std::string> mark_bracketed_arguments(int argc, char** argv);

// Adds the transform that removes the mark to every option of `app` and its subcommands.
void keep_values_as_typed(CLI::App& app);

// `text` (a CLI11 error message quoting an argument) without any mark.
std::string without_marks(std::string text);

}  // namespace gpuprof::cli
