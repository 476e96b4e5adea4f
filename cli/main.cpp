#include "command.hpp"

int main(int argc, char** argv) { return gpuprof::cli::run_gpuprof(argc, argv); }
