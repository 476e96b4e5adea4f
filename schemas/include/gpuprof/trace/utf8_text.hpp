#pragma once

#include <string>
#include <string_view>

namespace gpuprof {

// Names in trace files come from programs and files we do not control; every
// byte gpuprof writes must still be valid UTF-8 that viewers and JSON parsers
// accept. The one sanitiser for that job.

// True when `text` is valid UTF-8 (no overlong forms, surrogates or values
// beyond U+10FFFF) without C0 control characters other than tab and newline, or DEL.
bool is_clean_utf8(std::string_view text);

// `text` with each invalid UTF-8 sequence, and each control character other
// than tab and newline, replaced by U+FFFD. Clean text is returned unchanged.
std::string clean_utf8(std::string_view text);

// One line for a terminal, from any bytes: every control character (tab and
// newline included, and the C1 controls U+0080..U+009F, which some terminals
// obey as escapes) as '?', and invalid UTF-8 as U+FFFD. Every string from a file that
// reaches a terminal (report cells, warnings, error lines, `info`) goes through it.
std::string printable(std::string_view text);

// For writers that escape control characters themselves (JSON): only invalid
// UTF-8 sequences are replaced, by U+FFFD.
bool is_valid_utf8(std::string_view text);
std::string valid_utf8(std::string_view text);

}  // namespace gpuprof
