// Deliberately wrong (tests/scripts/room_walls_test.sh): the launcher is below the collector, which holds its folder.
#  include "gpuprof/collector/buffers.hpp"
