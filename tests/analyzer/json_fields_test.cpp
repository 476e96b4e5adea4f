// The one JSON number policy of every gpuprof document (gpuprof/report/json_fields.hpp). Before it, the report's
// and compare's writers printed a non-finite number as 0, study's as null and predict's not at all.

#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <limits>
#include <optional>
#include <string>

#include "gpuprof/report/json_fields.hpp"

namespace gpuprof::report::json {
namespace {

template <typename Write>
std::string object(Write write) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  w.StartObject();
  write(w);
  w.EndObject();
  return buffer.GetString();
}

TEST(JsonFields, NonFiniteNumbersAreNullNeverZero) {
  const auto nan = std::numeric_limits<double>::quiet_NaN();
  const auto inf = std::numeric_limits<double>::infinity();
  EXPECT_EQ(object([&](auto& w) {
              field(w, "a", nan);
              field(w, "b", -inf);
              exact_field(w, "c", inf);
              optional_field(w, "d", std::optional<double>(nan));
            }),
            R"({"a":null,"b":null,"c":null,"d":null})");
}

TEST(JsonFields, DoublesRoundedToThreeDecimalsUnlessExact) {
  EXPECT_EQ(object([](auto& w) {
              field(w, "ns", 1190153.8333333333);
              exact_field(w, "seconds", 0.0012345678);
              field(w, "count", std::int64_t{7});
              optional_field(w, "none", std::optional<double>());
            }),
            R"({"ns":1190153.833,"seconds":0.0012345678,"count":7,"none":null})");
}

TEST(JsonFields, StringsKeepTheirLength) {
  const std::string name("a\0b", 3);
  EXPECT_EQ(object([&](auto& w) { field(w, "name", name); }), std::string(R"({"name":"a\u0000b"})"));
}

}  // namespace
}  // namespace gpuprof::report::json
