#include "typed_values.hpp"

#include <string_view>

namespace gpuprof::cli {
namespace {

// Control bytes no one types at the start of a path or a pattern; a value is
// unmarked only when the mark is followed by the '[' it protects.
constexpr std::string_view kMark = "\x01gpuprof-as-typed\x01";

bool is_bracketed(std::string_view argument) {
  return argument.size() >= 2 && argument.front() == '[' && argument.back() == ']';
}

}  // namespace

std::vector<std::string> mark_bracketed_arguments(int argc, char** argv) {
  std::vector<std::string> arguments;
  for (int i = 0; i < argc; ++i) {
    const std::string_view argument(argv[i]);
    arguments.push_back(i > 0 && is_bracketed(argument) ? std::string(kMark) + std::string(argument)
                                                        : std::string(argument));
  }
  return arguments;
}

void keep_values_as_typed(CLI::App& app) {
  const CLI::Validator unmark(
      [](std::string& value) {
        if (value.starts_with(kMark) && value.size() > kMark.size() && value[kMark.size()] == '[') {
          value.erase(0, kMark.size());
        }
        return std::string();
      },
      "", "as typed");
  for (auto* option : app.get_options()) {
    if (option->get_type_size() != 0) option->transform(unmark);  // flags have no value to keep
  }
  for (auto* command : app.get_subcommands([](const CLI::App*) { return true; })) keep_values_as_typed(*command);
}

std::string without_marks(std::string text) {
  for (auto at = text.find(kMark); at != std::string::npos; at = text.find(kMark, at)) text.erase(at, kMark.size());
  return text;
}

}  // namespace gpuprof::cli
