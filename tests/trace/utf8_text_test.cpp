#include "gpuprof/trace/utf8_text.hpp"

#include <gtest/gtest.h>

namespace gpuprof {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Utf8Text, CleanTextIsUnchanged) {
  for (const std::string text : {"", "plain", "tab\tand\nnewline", "\xE2\x88\x91 \xF0\x9F\x98\x80 \xC3\xA9"}) {
    EXPECT_TRUE(is_clean_utf8(text)) << text;
    EXPECT_EQ(clean_utf8(text), text);
  }
}

TEST(Utf8Text, EachBadByteBecomesOneReplacement) {
  EXPECT_EQ(clean_utf8("a\xFF" "b"), "a" + kFffd + "b");
  EXPECT_EQ(clean_utf8("\xC0\xAF"), kFffd + kFffd);                 // overlong '/'
  EXPECT_EQ(clean_utf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);     // UTF-16 surrogate
  EXPECT_EQ(clean_utf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);  // beyond U+10FFFF
  EXPECT_EQ(clean_utf8("x\xE2\x82"), "x" + kFffd + kFffd);          // cut off at the end
}

TEST(Utf8Text, ControlCharactersAreReplacedUnlessTheWriterEscapesThem) {
  EXPECT_EQ(clean_utf8("\x1B[31mred\r"), kFffd + "[31mred" + kFffd);
  EXPECT_EQ(clean_utf8(std::string("nul\0x", 5)), "nul" + kFffd + "x");
  EXPECT_TRUE(is_valid_utf8("\x1B[31m"));
  EXPECT_EQ(valid_utf8("\x1B\xFF"), "\x1B" + kFffd);
}

}  // namespace
}  // namespace gpuprof
