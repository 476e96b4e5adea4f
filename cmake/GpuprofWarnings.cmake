# Warnings are attached to our own targets only, never globally, so that
# third-party headers keep compiling cleanly.
add_library(gpuprof_warnings INTERFACE)
target_compile_options(gpuprof_warnings INTERFACE
  $<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Wno-missing-field-initializers>
  # GCC 12 reports -Wrestrict for ordinary std::string copies at -O2 (a false positive, GCC bug 105651).
  $<$<COMPILE_LANG_AND_ID:CXX,GNU>:-Wno-restrict>)
add_library(gpuprof::warnings ALIAS gpuprof_warnings)
