#pragma once
// Deliberately wrong (tests/scripts/room_walls_test.sh): memory and idle share a floor, neither includes the other.
#include "gpuprof/idle/idle_cause.hpp"
#include "gpuprof/trace/trace_model.hpp"
