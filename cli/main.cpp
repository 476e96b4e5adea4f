#include "command.hpp"
#include "huge_page_heap.hpp"

int main(int argc, char** argv) {
  gpuprof::cli::restart_with_huge_page_heap(argc, argv);
  return gpuprof::cli::run_gpuprof(argc, argv);
}
