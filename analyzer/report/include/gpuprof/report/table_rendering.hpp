#pragma once

// One table in each output format; the report writers and other documents
// built from tables (e.g. `gpuprof compare`) share them.

#include <string>
#include <string_view>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// Title, aligned columns like `nsys stats`, a blank line; "(none)" without rows.
std::string text_table(const Table& table);
// The same within `max_width` columns where the last column holds text: its cells are shortened in
// the middle ("ncclDevKern...RING_LL"), so both ends of a name stay readable.
std::string text_table(const Table& table, std::size_t max_width);
// With `wrap_last`, a long last cell is not shortened but continues on the next lines under its column.
std::string text_table(const Table& table, std::size_t max_width, bool wrap_last);
// `text` wrapped at spaces into lines of at most `width` columns, the first starting with `first`
// and the others with `rest`; a word longer than a line is cut. Every line ends with '\n'.
std::string wrap_text(std::string_view first, std::string_view rest, std::string_view text, std::size_t width);
// `text` shortened to `width` columns by replacing its middle with "...".
std::string elide_middle(const std::string& text, std::size_t width);
// "## title" then a pipe table (or "(none)").
std::string markdown_table(const Table& table);
// Header and rows with raw values (nanoseconds, bytes), no title.
std::string csv_table(const Table& table);
// <h3>title</h3> and a <table>.
std::string html_table(const Table& table);
// Escaping for untrusted names outside tables (also used by the writers inside them).
std::string escape_html(std::string_view text);
std::string escape_markdown_cell(std::string_view text);
// The <head> style every gpuprof HTML document uses.
const char* html_style();
// The script every gpuprof HTML document ends with: sortable, filterable tables.
const char* html_script();

}  // namespace gpuprof::report
