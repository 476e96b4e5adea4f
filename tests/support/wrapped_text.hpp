#pragma once

// Terminal text as its writer meant it before wrapping: the report and predict continue prose past 120 columns
// on lines indented by four spaces, so a test that looks for a whole sentence joins those lines first.

#include <string>
#include <string_view>

namespace gpuprof::testing {

// Every line break followed by four spaces of indentation becomes one space.
std::string joined_wrapped_lines(std::string_view text);

}  // namespace gpuprof::testing
