#include "help_formatter.hpp"

#include <string>

#include "gpuprof/report/report_model.hpp"
#include "gpuprof/report/table_rendering.hpp"

namespace gpuprof::cli {
namespace {

constexpr std::size_t kWidth = report::kTerminalWidth;

// `text` wrapped into lines of `width` joined by '\n' (CLI11 indents what follows a '\n' itself).
std::string wrapped(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  auto lines = report::wrap_text("", "", text, width);
  if (!lines.empty() && lines.back() == '\n') lines.pop_back();
  return lines;
}

class WrappingFormatter : public CLI::Formatter {
 public:
  // The description of an option starts after the name column and two spaces of indent.
  std::string make_option_desc(const CLI::Option* option) const override {
    return wrapped(CLI::Formatter::make_option_desc(option), kWidth - get_column_width());
  }

  std::string make_subcommand(const CLI::App* command) const override {
    std::stringstream out;
    CLI::detail::format_help(out, command->get_display_name(true),
                             wrapped(command->get_description(), kWidth - get_column_width()), get_column_width());
    return out.str();
  }

  std::string make_description(const CLI::App* app) const override {
    auto text = CLI::Formatter::make_description(app);
    const bool newline = !text.empty() && text.back() == '\n';
    if (newline) text.pop_back();
    return wrapped(text, kWidth) + (newline ? "\n" : "");
  }
};

}  // namespace

std::shared_ptr<CLI::Formatter> wrapping_help_formatter() { return std::make_shared<WrappingFormatter>(); }

}  // namespace gpuprof::cli
