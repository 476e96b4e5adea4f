// Names holding invalid UTF-8 or terminal control characters (issue 16): every
// writer's output is valid UTF-8 with U+FFFD in their place, and every JSON
// output parses with strict encoding validation.
#include <gtest/gtest.h>

#include <string>

#include "gpuprof/trace/utf8_text.hpp"
#include "hostile_trace.hpp"

namespace gpuprof::testing {
namespace {

using Utf8Output = HostileTrace;

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

TEST_F(Utf8Output, InvalidNamesComeOutAsReplacementCharacters) {
  // bad, 0xFF 0xFE, a UTF-16 surrogate, an overlong slash, ESC [31m, a cut-off sequence.
  edit("UPDATE strings SET value = CAST(X'626164FFFE' || X'EDA080' || X'C0AF' || X'1B5B33316D' || X'E282' AS TEXT) "
       "WHERE id IN (SELECT name_id FROM kernels)");
  edit("UPDATE meta SET value = CAST(X'7275FF6E' AS TEXT) WHERE key = 'command_line'");
  const auto output = outputs();  // strict JSON parse of each JSON output
  for (const auto& [what, text] : output.texts) {
    EXPECT_TRUE(is_clean_utf8(text)) << what;
    EXPECT_NE(text.find(std::string("bad") + std::string(kReplacement)), std::string::npos) << what;
    EXPECT_EQ(text.find('\x1B'), std::string::npos) << what;
  }
}

}  // namespace
}  // namespace gpuprof::testing
