#pragma once

// What is generated from the command line's own definitions, so that it cannot
// drift from them: shell completion, the man page, and the answer to a
// mistyped command.

#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace gpuprof::cli {

// Names the values an option takes: help shows them as its type ("{text,md,...}"), and the man page and
// completion offer them. `list`: the option takes several, joined by commas.
CLI::Option* offer_values(CLI::Option* option, const std::vector<std::string>& values, bool list = false);

// `kind`: "bash", "zsh" or "man". nullopt for another kind.
std::optional<std::string> cli_reference(const CLI::App& app, const std::string& kind, const std::string& version);

// For a first word that is no command of `app`: one line saying so, with the
// nearest command when it is close. nullopt when `word` is a command or an option.
std::optional<std::string> unknown_command(const CLI::App& app, const std::string& word);

}  // namespace gpuprof::cli
