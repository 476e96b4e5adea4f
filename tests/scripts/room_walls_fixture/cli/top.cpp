// Allowed (tests/scripts/room_walls_test.sh): the command line sits on the top floor.
#include "gpuprof/study/study_writers.hpp"
#include "gpuprof/launcher/launch.hpp"
