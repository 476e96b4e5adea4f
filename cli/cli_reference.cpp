#include "cli_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <numeric>

namespace gpuprof::cli {
namespace {

struct OptionFacts {
  std::vector<std::string> names;  // "-o", "--output"
  std::string description;
  bool takes_value = false;
};

struct CommandFacts {
  std::string name;
  std::string description;
  std::vector<OptionFacts> options;
};

std::vector<OptionFacts> options_of(const CLI::App& app) {
  std::vector<OptionFacts> facts;
  for (const auto* option : app.get_options([](const CLI::Option* o) { return o->nonpositional(); })) {
    OptionFacts fact;
    for (const auto& name : option->get_snames()) fact.names.push_back("-" + name);
    for (const auto& name : option->get_lnames()) fact.names.push_back("--" + name);
    fact.description = option->get_description();
    fact.takes_value = option->get_type_size() != 0;
    facts.push_back(std::move(fact));
  }
  return facts;
}

std::vector<CommandFacts> commands_of(const CLI::App& app) {
  std::vector<CommandFacts> commands;
  for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back({command->get_name(), command->get_description(), options_of(*command)});
  }
  return commands;
}

std::string joined_names(const std::vector<OptionFacts>& options) {
  std::string words;
  for (const auto& option : options) {
    for (const auto& name : option.names) words += (words.empty() ? "" : " ") + name;
  }
  return words;
}

std::string bash_completion(const CLI::App& app) {
  const auto commands = commands_of(app);
  std::string names;
  for (const auto& command : commands) names += (names.empty() ? "" : " ") + command.name;
  std::string cases;
  for (const auto& command : commands) {
    cases += fmt::format("    {}) options=\"{}\" ;;\n", command.name, joined_names(command.options));
  }
  return fmt::format(R"(# bash completion for gpuprof, generated from its option definitions (gpuprof --cli-reference bash)
_gpuprof() {{
  local current=${{COMP_WORDS[COMP_CWORD]}}
  if [[ $COMP_CWORD -eq 1 ]]; then
    COMPREPLY=($(compgen -W "{} {}" -- "$current"))
    return
  fi
  local options=""
  case ${{COMP_WORDS[1]}} in
{}  esac
  if [[ $current == -* ]]; then
    COMPREPLY=($(compgen -W "$options" -- "$current"))
  else
    COMPREPLY=($(compgen -f -- "$current"))
  fi
}}
complete -o filenames -F _gpuprof gpuprof
)",
                     names, joined_names(options_of(app)), cases);
}

std::string zsh_quoted(std::string text) {
  std::string quoted;
  for (char c : text) {
    if (c == '\'' ) quoted += "'\\''";
    else if (c == ':' || c == '[' || c == ']') quoted += std::string("\\") + c;
    else quoted += c;
  }
  return quoted;
}

std::string zsh_completion(const CLI::App& app) {
  const auto commands = commands_of(app);
  std::string described;
  for (const auto& command : commands) {
    described += fmt::format("    '{}:{}'\n", command.name, zsh_quoted(command.description));
  }
  std::string cases;
  for (const auto& command : commands) {
    std::string specs;
    for (const auto& option : command.options) {
      for (const auto& name : option.names) {
        specs += fmt::format(" '{}[{}]{}'", name, zsh_quoted(option.description), option.takes_value ? ":value:_files" : "");
      }
    }
    cases += fmt::format("    {}) _arguments{} '*:file:_files' ;;\n", command.name, specs);
  }
  return fmt::format(R"(#compdef gpuprof
# zsh completion for gpuprof, generated from its option definitions (gpuprof --cli-reference zsh)
_gpuprof() {{
  local -a commands
  commands=(
{}  )
  if (( CURRENT == 2 )); then
    _describe 'command' commands
    return
  fi
  local command=${{words[2]}}
  (( CURRENT-- ))
  shift words
  case $command in
{}  esac
}}
_gpuprof "$@"
)",
                     described, cases);
}

// roff needs a backslash doubled and a leading dot or quote escaped.
std::string roff(const std::string& text) {
  std::string escaped;
  for (char c : text) escaped += c == '\\' ? std::string("\\e") : c == '-' ? std::string("\\-") : std::string(1, c);
  if (!escaped.empty() && (escaped[0] == '.' || escaped[0] == '\'')) escaped = "\\&" + escaped;
  return escaped;
}

std::string man_page(const CLI::App& app, const std::string& version) {
  std::string page = fmt::format(".TH GPUPROF 1 \"\" \"{}\" \"User Commands\"\n", roff(version));
  page += ".SH NAME\ngpuprof \\- " + roff(app.get_description()) + "\n";
  page += ".SH SYNOPSIS\n.B gpuprof\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIFILES\\fR]\n";
  page += ".SH DESCRIPTION\nEach command says more with \\fBgpuprof \\fICOMMAND\\fB \\-\\-help\\fR. "
          "Exit status: 0 success, 1 failure, 2 bad input or usage.\n";
  page += ".SH COMMANDS\n";
  for (const auto& command : commands_of(app)) {
    page += ".SS " + roff(command.name) + "\n" + roff(command.description) + "\n";
    for (const auto& option : command.options) {
      std::string names;
      for (const auto& name : option.names) names += (names.empty() ? "" : ", ") + std::string("\\fB") + roff(name) + "\\fR";
      page += ".TP\n" + names + (option.takes_value ? " \\fIVALUE\\fR" : "") + "\n" + roff(option.description) + "\n";
    }
  }
  page += ".SH SEE ALSO\nThe README and docs/ of the gpuprof sources.\n";
  return page;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> previous(b.size() + 1), current(b.size() + 1);
  std::iota(previous.begin(), previous.end(), 0);
  for (std::size_t i = 1; i <= a.size(); ++i) {
    current[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    }
    std::swap(previous, current);
  }
  return previous[b.size()];
}

}  // namespace

std::optional<std::string> cli_reference(const CLI::App& app, const std::string& kind, const std::string& version) {
  if (kind == "bash") return bash_completion(app);
  if (kind == "zsh") return zsh_completion(app);
  if (kind == "man") return man_page(app, version);
  return std::nullopt;
}

std::optional<std::string> unknown_command(const CLI::App& app, const std::string& word) {
  if (word.empty() || word[0] == '-') return std::nullopt;
  std::string nearest;
  std::size_t best = SIZE_MAX;
  for (const auto& command : commands_of(app)) {
    if (command.name == word) return std::nullopt;
    const auto distance = edit_distance(word, command.name);
    if (distance < best) best = distance, nearest = command.name;
  }
  std::string message = "unknown command '" + word + "'";
  // A suggestion only when it is plausibly what was meant.
  if (best <= std::max<std::size_t>(2, nearest.size() / 3)) message += "; did you mean '" + nearest + "'?";
  return message;
}

}  // namespace gpuprof::cli
