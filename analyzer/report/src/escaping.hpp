#pragma once

// Names come from untrusted traces: everything written into markup or CSV goes through these.

#include <string>
#include <string_view>

namespace gpuprof::report {

// For HTML text and attribute values (and SVG, which is inline HTML here).
std::string escape_html(std::string_view text);
// One CSV field (RFC 4180 quoting). Text cells that a spreadsheet would run
// as a formula (=, +, -, @ first) get a leading apostrophe.
std::string escape_csv(std::string_view text, bool is_text);
// One Markdown table cell: pipes, backslashes, HTML and line breaks neutralised, control characters as '?'.
std::string escape_markdown_cell(std::string_view text);

}  // namespace gpuprof::report
