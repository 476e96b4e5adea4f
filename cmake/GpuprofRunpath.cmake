# CMake's computed build RPATH for targets that link CUDA libraries ends in an
# empty entry ("/usr/local/cuda/lib:"), and an empty RUNPATH entry makes the
# loader search the current directory: a library planted there would be loaded
# into the profiled program. Such targets get exactly the folders named here.
#
# gpuprof_explicit_runpath(TARGET FOLDER...)
function(gpuprof_explicit_runpath target)
  set(folders "")
  foreach(folder IN LISTS ARGN)
    if(NOT folder STREQUAL "" AND NOT folder IN_LIST folders)
      list(APPEND folders "${folder}")
    endif()
  endforeach()
  list(JOIN folders ":" runpath)
  set_target_properties(${target} PROPERTIES SKIP_BUILD_RPATH ON)
  if(NOT runpath STREQUAL "")
    target_link_options(${target} PRIVATE "LINKER:-rpath,${runpath}")
  endif()
endfunction()
