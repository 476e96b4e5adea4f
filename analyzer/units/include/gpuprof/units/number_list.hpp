#pragma once

// Lists of numbers as users type them on the command line ("--batch 64,128", "--gpus 2,4,8") or in the
// app's fields: one parser and one range check, so every option that takes a list reads it the same way.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpuprof::units {

// "64,128,256" → numbers; nullopt on anything that is not a comma-separated list of integers
// (an empty item, a sign-less word, a value beyond int64).
std::optional<std::vector<std::int64_t>> parse_number_list(const std::string& text);

// "OPTION: V is not between 1 and HIGH" for the first value out of [1, high], "OPTION: give at least one
// value" for none; empty when every value is in range.
std::string number_list_problem(const std::vector<std::int64_t>& values, const char* option, std::int64_t high);

}  // namespace gpuprof::units
