// Deliberately wrong (tests/scripts/room_walls_test.sh): the base analyses include the rank room above them.
#include "gpuprof/analysis/steps.hpp"
#include "gpuprof/rank/rank_analysis.hpp"
