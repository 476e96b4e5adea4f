#pragma once

// One table in each output format; the report writers and other documents
// built from tables (e.g. `gpuprof compare`) share them.

#include <string>
#include <string_view>

#include "gpuprof/report/report_model.hpp"

namespace gpuprof::report {

// Title, aligned columns like `nsys stats`, a blank line; "(none)" without rows.
std::string text_table(const Table& table);
// "## title" then a pipe table (or "(none)").
std::string markdown_table(const Table& table);
// Header and rows with raw values (nanoseconds, bytes), no title.
std::string csv_table(const Table& table);
// <h3>title</h3> and a <table>.
std::string html_table(const Table& table);
// Control characters from untrusted names would move the terminal cursor.
std::string printable(const std::string& text);
// Escaping for untrusted names outside tables (also used by the writers inside them).
std::string escape_html(std::string_view text);
std::string escape_markdown_cell(std::string_view text);
// The <head> style every gpuprof HTML document uses.
const char* html_style();
// The script every gpuprof HTML document ends with: sortable, filterable tables.
const char* html_script();

}  // namespace gpuprof::report
