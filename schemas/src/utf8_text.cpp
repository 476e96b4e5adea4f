#include "gpuprof/trace/utf8_text.hpp"

#include <cstddef>
#include <cstdint>

namespace gpuprof {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// Length of the valid UTF-8 sequence starting at `at`, or 0 when the bytes
// there are not one (RFC 3629 table of well-formed byte sequences).
std::size_t sequence_length(std::string_view text, std::size_t at) {
  const auto byte = [&](std::size_t i) { return static_cast<std::uint8_t>(text[at + i]); };
  const auto lead = byte(0);
  if (lead < 0x80) return 1;
  std::size_t length = 0;
  std::uint8_t low = 0x80, high = 0xBF;  // range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) length = 2;
  else if (lead == 0xE0) length = 3, low = 0xA0;
  else if (lead >= 0xE1 && lead <= 0xEC) length = 3;
  else if (lead == 0xED) length = 3, high = 0x9F;  // no UTF-16 surrogates
  else if (lead >= 0xEE && lead <= 0xEF) length = 3;
  else if (lead == 0xF0) length = 4, low = 0x90;
  else if (lead >= 0xF1 && lead <= 0xF3) length = 4;
  else if (lead == 0xF4) length = 4, high = 0x8F;  // nothing beyond U+10FFFF
  else return 0;
  if (at + length > text.size()) return 0;
  if (byte(1) < low || byte(1) > high) return 0;
  for (std::size_t i = 2; i < length; ++i) {
    if (byte(i) < 0x80 || byte(i) > 0xBF) return 0;
  }
  return length;
}

bool is_unwanted_control(char c) { return (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n') || c == 0x7F; }

}  // namespace

namespace {

bool replaced(std::string_view text, std::size_t at, std::size_t length, bool controls) {
  return length == 0 || (controls && length == 1 && is_unwanted_control(text[at]));
}

bool is_clean(std::string_view text, bool controls) {
  for (std::size_t at = 0; at < text.size();) {
    const auto length = sequence_length(text, at);
    if (replaced(text, at, length, controls)) return false;
    at += length;
  }
  return true;
}

std::string clean(std::string_view text, bool controls) {
  if (is_clean(text, controls)) return std::string(text);
  std::string result;
  result.reserve(text.size() + 8);
  for (std::size_t at = 0; at < text.size();) {
    const auto length = sequence_length(text, at);
    if (replaced(text, at, length, controls)) {
      result += kReplacement;
      ++at;  // one replacement per bad byte keeps the result's length predictable
      continue;
    }
    result.append(text.substr(at, length));
    at += length;
  }
  return result;
}

}  // namespace

bool is_clean_utf8(std::string_view text) { return is_clean(text, true); }
std::string clean_utf8(std::string_view text) { return clean(text, true); }
bool is_valid_utf8(std::string_view text) { return is_clean(text, false); }
std::string valid_utf8(std::string_view text) { return clean(text, false); }

std::string printable(std::string_view text) {
  std::string out(text);
  for (auto& c : out) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7F) c = '?';
  }
  out = valid_utf8(out);
  for (std::size_t at = 0; at + 1 < out.size(); ++at) {
    // A C1 control, U+0080..U+009F; in valid UTF-8, 0xC2 is always a lead byte.
    if (static_cast<unsigned char>(out[at]) == 0xC2 && static_cast<unsigned char>(out[at + 1]) <= 0x9F) {
      out.replace(at, 2, "?");
    }
  }
  return out;
}

}  // namespace gpuprof
