#include "cli_reference.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>
#include <numeric>

namespace gpuprof::cli {
namespace {

struct OptionFacts {
  std::vector<std::string> names;  // "-o", "--output"
  std::string description;
  std::string type;           // "UINT", "TEXT:PATH", "{text,md,csv}"; empty for a flag
  std::string default_value;  // empty when none is shown
  std::vector<std::string> values;  // what offer_values named
  bool list = false;                // values joined by commas
  bool takes_value = false;
  bool number() const {
    return type.starts_with("INT") || type.starts_with("UINT") || type.starts_with("FLOAT") ||
           type.starts_with("NUMBER");
  }
};

struct PositionalFacts {
  std::string name, description;
  bool required = false, several = false;
};

struct CommandFacts {
  std::string name;
  std::string description;
  std::vector<OptionFacts> options;
  std::vector<PositionalFacts> positionals;
};

constexpr std::string_view kListSuffix = ",...";

// The values offer_values wrote into the type name, "{a,b,c}" or "{a,b,c},...".
std::vector<std::string> values_of(std::string_view type) {
  if (type.ends_with(kListSuffix)) type.remove_suffix(kListSuffix.size());
  if (type.size() < 2 || type.front() != '{' || type.back() != '}') return {};
  std::vector<std::string> values;
  type = type.substr(1, type.size() - 2);
  for (std::size_t begin = 0; begin <= type.size();) {
    const auto end = std::min(type.find(',', begin), type.size());
    values.emplace_back(type.substr(begin, end - begin));
    begin = end + 1;
  }
  return values;
}

std::vector<OptionFacts> options_of(const CLI::App& app) {
  std::vector<OptionFacts> facts;
  for (const auto* option : app.get_options([](const CLI::Option* o) { return o->nonpositional(); })) {
    OptionFacts fact;
    for (const auto& name : option->get_snames()) fact.names.push_back("-" + name);
    for (const auto& name : option->get_lnames()) fact.names.push_back("--" + name);
    fact.description = option->get_description();
    // A flag expects no item; CLI11 still gives it a type size of 1.
    fact.takes_value = option->get_items_expected_max() != 0;
    if (fact.takes_value) {
      fact.type = option->get_type_name();
      fact.default_value = option->get_default_str();
      fact.values = values_of(fact.type);
      fact.list = fact.type.ends_with(kListSuffix);
    }
    facts.push_back(std::move(fact));
  }
  return facts;
}

std::vector<PositionalFacts> positionals_of(const CLI::App& app) {
  std::vector<PositionalFacts> facts;
  for (const auto* option : app.get_options([](const CLI::Option* o) { return o->get_positional(); })) {
    facts.push_back({option->get_name(), option->get_description(), option->get_required(),
                     option->get_items_expected_max() > 1});
  }
  return facts;
}

std::vector<CommandFacts> commands_of(const CLI::App& app) {
  std::vector<CommandFacts> commands;
  for (const auto* command : app.get_subcommands([](const CLI::App*) { return true; })) {
    commands.push_back({command->get_name(), command->get_description(), options_of(*command), positionals_of(*command)});
  }
  return commands;
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  std::string text;
  for (const auto& word : words) text += (text.empty() ? "" : std::string(separator)) + word;
  return text;
}

std::string joined_names(const std::vector<OptionFacts>& options) {
  std::vector<std::string> names;
  for (const auto& option : options) names.insert(names.end(), option.names.begin(), option.names.end());
  return joined(names, " ");
}

// The case arms that say what follows an option taking a value: its values, or nothing for a number
// (anything else is a path or a pattern, completed as a file name).
std::string bash_value_cases(const std::vector<OptionFacts>& options) {
  std::string cases;
  std::vector<std::string> numbers;
  for (const auto& option : options) {
    if (option.number()) numbers.insert(numbers.end(), option.names.begin(), option.names.end());
    if (option.values.empty()) continue;
    cases += fmt::format("        {}) values=\"{}\"{} ;;\n", joined(option.names, "|"), joined(option.values, " "),
                         option.list ? " list=1" : "");
  }
  if (!numbers.empty()) cases += fmt::format("        {}) return ;;\n", joined(numbers, "|"));
  return cases;
}

std::string bash_completion(const CLI::App& app) {
  const auto commands = commands_of(app);
  std::vector<std::string> names;
  for (const auto& command : commands) names.push_back(command.name);
  std::string cases;
  for (const auto& command : commands) {
    cases += fmt::format("    {})\n      options=\"{}\"\n      case $option in\n{}      esac ;;\n", command.name,
                         joined_names(command.options), bash_value_cases(command.options));
  }
  return fmt::format(R"(# bash completion for gpuprof, generated from its option definitions (gpuprof --cli-reference bash)
# One reply per line of compgen's output: a file name with spaces stays one word and none is glob-expanded.
_gpuprof_reply() {{
  mapfile -t COMPREPLY < <(compgen "$@")
}}
_gpuprof() {{
  local current=${{COMP_WORDS[COMP_CWORD]}} option=${{COMP_WORDS[COMP_CWORD-1]}}
  # --format=json: bash splits the word at '='.
  if [[ $option == "=" && $COMP_CWORD -ge 2 ]]; then option=${{COMP_WORDS[COMP_CWORD-2]}}; fi
  COMPREPLY=()
  if [[ $COMP_CWORD -eq 1 ]]; then
    _gpuprof_reply -W "{} {}" -- "$current"
    return
  fi
  local options="" values="" list=""
  case ${{COMP_WORDS[1]}} in
{}  esac
  if [[ -n $values && -n $list && $current == *,* ]]; then
    _gpuprof_reply -P "${{current%,*}}," -W "$values" -- "${{current##*,}}"
  elif [[ -n $values ]]; then
    _gpuprof_reply -W "$values" -- "$current"
  elif [[ $current == -* ]]; then
    _gpuprof_reply -W "$options" -- "$current"
  else
    # Quoted when inserted (spaces, quotes, glob characters), a slash after a folder.
    compopt -o filenames 2>/dev/null
    _gpuprof_reply -f -- "$current"
  fi
}}
complete -F _gpuprof gpuprof
)",
                     joined(names, " "), joined_names(options_of(app)), cases);
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

// What _arguments completes after an option: its values, nothing for a number, else a file.
std::string zsh_action(const OptionFacts& option) {
  if (!option.takes_value) return "";
  if (!option.values.empty()) {
    return option.list ? ":values:_values -s , value " + joined(option.values, " ")
                       : ":value:(" + joined(option.values, " ") + ")";
  }
  return option.number() ? ":number: " : ":file:_files";
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
        specs += fmt::format(" '{}[{}]{}'", name, zsh_quoted(option.description), zsh_action(option));
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

std::string man_synopsis(const CommandFacts& command) {
  std::string line = "\\fBgpuprof " + roff(command.name) + "\\fR";
  if (!command.options.empty()) line += " [\\fIOPTIONS\\fR]";
  for (const auto& positional : command.positionals) {
    auto name = "\\fI" + roff(positional.name) + "\\fR" + (positional.several ? "..." : "");
    line += " " + (positional.required ? name : "[" + name + "]");
  }
  return ".PP\n" + line + "\n";
}

std::string man_option(const OptionFacts& option) {
  std::vector<std::string> names;
  for (const auto& name : option.names) names.push_back("\\fB" + roff(name) + "\\fR");
  auto entry = ".TP\n" + joined(names, ", ");
  if (option.takes_value) entry += " \\fI" + roff(option.type) + "\\fR";
  entry += "\n" + roff(option.description);
  if (!option.default_value.empty()) entry += " (default: " + roff(option.default_value) + ")";
  return entry + "\n";
}

// Commands people start with, as the README shows them.
constexpr std::array<std::pair<std::string_view, std::string_view>, 8> kExamples{{
    {"gpuprof record -o run_%q{RANK}.sqlite -- python train.py", "Record any CUDA program, one file per process."},
    {"gpuprof report run_0.sqlite", "Where the step time goes, per device, and why the GPUs idle."},
    {"gpuprof report runs/ --format html -o report.html", "A whole job (a folder of rank files): ranks, stragglers."},
    {"gpuprof compare one_gpu.sqlite two_gpus/", "Speedup, scaling efficiency and the step-time waterfall."},
    {"gpuprof import trace.pt.trace.json.gz -o trace.sqlite", "Convert a PyTorch profiler, Nsight or nvprof trace."},
    {"gpuprof export runs/ --chrome-trace job.json.gz", "A whole job for the Perfetto UI, every rank on one clock."},
    {"gpuprof predict one_gpu.sqlite --gpus 2,8 --link nvlink3", "Whether N GPUs would be faster, and by how much."},
    {"gpuprof gui runs/", "The same job in the desktop app."},
}};

std::string man_page(const CLI::App& app, const std::string& version) {
  auto summary = app.get_description();
  if (summary.starts_with("gpuprof: ")) summary.erase(0, 9);  // NAME already starts with the program's name
  std::string page = fmt::format(".TH GPUPROF 1 \"\" \"{}\" \"User Commands\"\n", roff(version));
  page += ".SH NAME\ngpuprof \\- " + roff(summary) + "\n";
  page += ".SH SYNOPSIS\n.B gpuprof\n\\fICOMMAND\\fR [\\fIOPTIONS\\fR] [\\fIFILES\\fR]\n";
  page += ".SH DESCRIPTION\nEach command says more with \\fBgpuprof \\fICOMMAND\\fB \\-\\-help\\fR. "
          "Exit status: 0 success, 1 failure, 2 bad input or usage.\n";
  page += ".SH COMMANDS\n";
  for (const auto& command : commands_of(app)) {
    page += ".SS " + roff(command.name) + "\n" + roff(command.description) + "\n" + man_synopsis(command);
    for (const auto& positional : command.positionals) {
      page += ".TP\n\\fI" + roff(positional.name) + "\\fR\n" + roff(positional.description) + "\n";
    }
    for (const auto& option : command.options) page += man_option(option);
  }
  page += ".SH EXAMPLES\n";
  for (const auto& [command, what] : kExamples) {
    page += ".TP\n\\fB" + roff(std::string(command)) + "\\fR\n" + roff(std::string(what)) + "\n";
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

CLI::Option* offer_values(CLI::Option* option, const std::vector<std::string>& values, bool list) {
  option->type_name("{" + joined(values, ",") + "}" + (list ? std::string(kListSuffix) : std::string()));
  return option;
}

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
