#pragma once

#include <string>
#include <vector>

#include "gpuprof/trace/records.hpp"

namespace gpuprof::trace {

// Replaces the analyzer-derived `steps` and `gaps` tables of an existing trace
// in one transaction; every other table is left untouched.
void save_derived_tables(const std::string& path, const std::vector<StepRow>& steps,
                         const std::vector<GapRow>& gaps);

}  // namespace gpuprof::trace
