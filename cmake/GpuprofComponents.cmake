# Which optional components are built, and why any is left out.
#
# Without GPUPROF_REQUIRE_COMPONENTS (the dev and laptop case) each component
# defaults to ON when what it needs was found; the summary says which were left
# out and what to install. With it (the release preset used by scripts/run.sh,
# scripts/test.sh and CI) the GUI, tests and benchmarks are required always, and
# the collector and workloads whenever the CUDA toolkit is present: a missing
# dependency is then a configure error naming the package, never a quietly
# smaller build. Asking for a component explicitly (-D...=ON) when its
# dependency is missing is an error in both modes; -D...=OFF is always honoured.
include(FeatureSummary)

option(GPUPROF_REQUIRE_COMPONENTS
  "Fail the configure step instead of leaving out a component whose dependencies are missing" OFF)

set(GPUPROF_LEFT_OUT "")

# gpuprof_component(OPTION DESCRIPTION AVAILABLE_VAR REQUIRED_VAR INSTALL_HINT)
function(gpuprof_component option description available required install_hint)
  # An OFF that this file chose (not the user) is chosen again, so installing the dependency later is enough.
  if(_GPUPROF_AUTO_OFF_${option})
    unset(${option} CACHE)
    unset(_GPUPROF_AUTO_OFF_${option} CACHE)
  endif()
  if(DEFINED ${option} AND NOT ${option})
    set(reason "switched off (${option}=OFF)")
  elseif(${available})
    set(${option} ON CACHE BOOL "${description}")
  elseif((DEFINED ${option} AND ${option}) OR ${required})
    message(FATAL_ERROR "gpuprof: ${description} (${option}) cannot be built: ${install_hint}")
  else()
    set(reason "${install_hint}")
    set(${option} OFF CACHE BOOL "${description}")
    set(_GPUPROF_AUTO_OFF_${option} ON CACHE INTERNAL "")
  endif()
  if(NOT ${option})
    set(GPUPROF_LEFT_OUT "${GPUPROF_LEFT_OUT}${option} (${description}): ${reason}\n" PARENT_SCOPE)
  endif()
  add_feature_info(${option} ${option} "${description}")
endfunction()

# What each component needs, and the words that tell a user how to get it.
set(GPUPROF_HAVE_CUDA_TOOLKIT ${CUDAToolkit_FOUND})
set(GPUPROF_HAVE_GTEST ${GTest_FOUND})
set(GPUPROF_HAVE_BENCHMARK ${benchmark_FOUND})
set(GPUPROF_HAVE_WORKLOAD_DEPS OFF)
set(workload_missing "")
foreach(found GPUPROF_HAVE_NVCC GPUPROF_CUDNN_INCLUDE_DIR GPUPROF_CUDNN_LIBRARY
              GPUPROF_NCCL_INCLUDE_DIR GPUPROF_NCCL_LIBRARY)
  if(NOT ${found})
    list(APPEND workload_missing ${found})
  endif()
endforeach()
if(NOT TARGET CUDA::cublas)
  list(APPEND workload_missing cuBLAS)
endif()
if(NOT workload_missing)
  set(GPUPROF_HAVE_WORKLOAD_DEPS ON)
endif()

if(GPUPROF_REQUIRE_COMPONENTS)
  set(GPUPROF_REQUIRE_HOST_PARTS ON)
  set(GPUPROF_REQUIRE_CUDA_PARTS ${GPUPROF_HAVE_CUDA_TOOLKIT})
else()
  set(GPUPROF_REQUIRE_HOST_PARTS OFF)
  set(GPUPROF_REQUIRE_CUDA_PARTS OFF)
endif()

if(GPUPROF_HAVE_CUDA_TOOLKIT)
  set(cupti_hint "the CUDA toolkit at ${CUDAToolkit_ROOT} has no CUPTI (install cuda-cupti for this CUDA version)")
  string(REPLACE ";" ", " workload_missing_text "${workload_missing}")
  set(workload_hint "missing ${workload_missing_text}: install nvcc, cuDNN 9 and NCCL for this CUDA version under ${CUDAToolkit_ROOT}")
else()
  set(cupti_hint "no CUDA toolkit found (install it under /usr/local/cuda to record traces; analysing them needs none)")
  set(workload_hint "no CUDA toolkit found (install it with cuDNN 9 and NCCL under /usr/local/cuda)")
endif()

gpuprof_component(GPUPROF_BUILD_COLLECTOR "CUPTI collector libgpuprof_collector.so"
  GPUPROF_HAVE_CUPTI GPUPROF_REQUIRE_CUDA_PARTS "${cupti_hint}")
gpuprof_component(GPUPROF_BUILD_WORKLOADS "built-in CUDA training workloads"
  GPUPROF_HAVE_WORKLOAD_DEPS GPUPROF_REQUIRE_CUDA_PARTS "${workload_hint}")
gpuprof_component(GPUPROF_BUILD_GUI "Qt6 desktop app"
  GPUPROF_HAVE_QT GPUPROF_REQUIRE_HOST_PARTS
  "Qt6 Widgets/Charts not found: apt-get install qt6-base-dev qt6-charts-dev libqt6opengl6-dev libgl-dev")
gpuprof_component(GPUPROF_BUILD_TESTS "GoogleTest test suite"
  GPUPROF_HAVE_GTEST GPUPROF_REQUIRE_HOST_PARTS "GoogleTest not found: apt-get install libgtest-dev libgmock-dev")
gpuprof_component(GPUPROF_BUILD_BENCH "Google Benchmark benchmarks"
  GPUPROF_HAVE_BENCHMARK GPUPROF_REQUIRE_HOST_PARTS "Google Benchmark not found: apt-get install libbenchmark-dev")

if(GPUPROF_BUILD_COLLECTOR OR GPUPROF_BUILD_WORKLOADS)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # Builds without a GPU present; runs natively on Ampere (sm_80) and Hopper (sm_90),
    # with PTX for newer parts.
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual" CACHE STRING "CUDA architectures")
  endif()
endif()

# The summary ends with one line per component left out, so the reason is the
# last thing a user sees of the configure step.
function(gpuprof_print_feature_summary)
  feature_summary(WHAT ENABLED_FEATURES DISABLED_FEATURES
    DESCRIPTION "gpuprof components:" QUIET_ON_EMPTY)
  if(GPUPROF_LEFT_OUT)
    string(STRIP "${GPUPROF_LEFT_OUT}" left_out)
    string(REPLACE "\n" "\n--   " left_out "${left_out}")
    message(STATUS "gpuprof: components left out, and why:\n--   ${left_out}")
  else()
    message(STATUS "gpuprof: all components are built")
  endif()
endfunction()
