#pragma once

// Numbers in a Kineto event's fields and args, which writers spell either as
// JSON numbers or as strings holding one.

#include <cstdint>
#include <optional>
#include <string_view>

#include "kineto_event.hpp"

namespace gpuprof::importers {

// A number, or a string ending in one ("25738", "stream 7", "2560").
std::optional<std::int64_t> number_in(const JsonScalar& value);
// The number in args[key]; nullopt when the arg is absent or holds none.
std::optional<std::int64_t> arg_number(const KinetoEvent& event, std::string_view key);

}  // namespace gpuprof::importers
