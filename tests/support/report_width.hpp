#pragma once

// Checks that a text report fits a terminal: every line within `width` columns (UTF-8 characters).

#include <string>

namespace gpuprof::testing {

// The first line wider than `width`, with its width; empty when every line fits.
std::string first_line_wider_than(const std::string& text, std::size_t width);

// The lines a reader goes through to the end of the summary's "Answer:" paragraph (its label and the lines
// continuing it); SIZE_MAX when the text has no answer.
std::size_t lines_through_answer(const std::string& text);

}  // namespace gpuprof::testing
