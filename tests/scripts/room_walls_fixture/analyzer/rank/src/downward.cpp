// Allowed (tests/scripts/room_walls_test.sh): rank includes a room below it and, through it, the store.
#include "gpuprof/idle/idle_cause.hpp"
#include <gpuprof/trace/trace_model.hpp>
#include "gpuprof/rank/gaps.hpp"
