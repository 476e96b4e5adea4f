#pragma once

// One table in each output format; the report writers and other documents
// built from tables (e.g. `gpuprof compare`) share them.

#include <string>
#include <string_view>
#include <vector>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// What a last column of text does with a cell too long for the width left to it.
enum class LongText {
  shorten,  // shortened in the middle ("ncclDevKern...RING_LL"), so both ends of a name stay readable
  cut,      // continued on the next lines under its column, cut at the width (whole kernel names)
  words,    // continued on the next lines under its column, wrapped at its spaces (prose)
};

struct TextLayout {
  std::size_t max_width = 0;  // 0: no limit, one line per row
  LongText long_text = LongText::shorten;
  // A table wider than max_width whose last column cannot give way (numbers, or too little room left) is split
  // into parts of the columns that fit, each repeating this many leading columns that name a row.
  std::size_t key_columns = 0;
};

// Title, aligned columns like `nsys stats`, a blank line; "(none)" without rows. Columns are aligned by
// characters (cells hold ±, µ, names in any script); every string goes through `printable`.
std::string text_table(const Table& table, const TextLayout& layout);
std::string text_table(const Table& table);
// Within `max_width` columns, the last column's long cells shortened in the middle.
std::string text_table(const Table& table, std::size_t max_width);
// With `wrap_last`, a long last cell is not shortened but continues on the next lines under its column.
std::string text_table(const Table& table, std::size_t max_width, bool wrap_last);
// The table with only `columns` (indices, in this order), every row's cells likewise.
Table with_columns(const Table& table, const std::vector<std::size_t>& columns);
// Columns on a screen: characters, not bytes (a UTF-8 continuation byte adds none).
std::size_t display_width(std::string_view text);
// `text` wrapped at spaces into lines of at most `width` columns, the first starting with `first`
// and the others with `rest`; a word longer than a line is cut. Every line ends with '\n'.
std::string wrap_text(std::string_view first, std::string_view rest, std::string_view text, std::size_t width);
// `text` shortened to `width` characters by replacing its middle with "...".
std::string elide_middle(const std::string& text, std::size_t width);
// "## title" then a pipe table (or "(none)"); title, headers and cells escaped and printable.
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
// How every gpuprof HTML document opens: doctype, html_style() (plus `extra_style`), and `title`, escaped, as
// its <title> and <h1>.
std::string html_page_start(std::string_view title, std::string_view extra_style = "");
// How it ends: html_script() and the closing tags.
std::string html_page_end();

}  // namespace gpuprof::report
