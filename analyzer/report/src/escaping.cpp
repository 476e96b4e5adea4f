#include "escaping.hpp"

#include "gpuprof/trace/utf8_text.hpp"

namespace gpuprof::report {

std::string escape_html(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string escape_csv(std::string_view text, bool is_text) {
  std::string field(text);
  if (is_text && !field.empty() && (field[0] == '=' || field[0] == '+' || field[0] == '-' || field[0] == '@')) {
    field.insert(field.begin(), '\'');
  }
  if (field.find_first_of(",\"\r\n") == std::string::npos) return field;
  std::string out = "\"";
  for (const char c : field) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string escape_markdown_cell(std::string_view text) {
  std::string out;
  for (const char c : text) {
    switch (c) {
      case '|': out += "\\|"; break;
      case '\\': out += "\\\\"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '`': out += "\\`"; break;
      case '*': out += "\\*"; break;
      case '_': out += "\\_"; break;
      case '\n': case '\r': out += ' '; break;
      default: out += c;
    }
  }
  // Markdown is read in terminals too: no escape sequence or other control character gets through.
  return printable(out);
}

}  // namespace gpuprof::report
