# Each optional component defaults to ON when what it needs was found. Asking
# for a component explicitly when its dependency is missing is a configure error
# that says what to install.
include(FeatureSummary)

function(gpuprof_component option description available install_hint)
  if(NOT DEFINED ${option})
    set(${option} ${${available}} CACHE BOOL "${description}")
  elseif(${option} AND NOT ${${available}})
    message(FATAL_ERROR "${option}=ON but its dependency is missing: ${install_hint}")
  endif()
  add_feature_info(${option} ${option} "${description}")
endfunction()

set(GPUPROF_ALWAYS ON)
set(GPUPROF_HAVE_GTEST ${GTest_FOUND})
set(GPUPROF_HAVE_BENCHMARK ${benchmark_FOUND})
set(GPUPROF_HAVE_WORKLOAD_DEPS OFF)
if(GPUPROF_HAVE_NVCC AND TARGET CUDA::cublas)
  set(GPUPROF_HAVE_WORKLOAD_DEPS ON)
endif()

gpuprof_component(GPUPROF_BUILD_COLLECTOR "CUPTI collector libgpuprof_collector.so"
  GPUPROF_HAVE_CUPTI "install the CUDA toolkit with CUPTI under /usr/local/cuda")
gpuprof_component(GPUPROF_BUILD_WORKLOADS "built-in CUDA training workloads"
  GPUPROF_HAVE_WORKLOAD_DEPS "install the CUDA toolkit (nvcc, cuBLAS, cuDNN, NCCL) under /usr/local/cuda")
gpuprof_component(GPUPROF_BUILD_GUI "Qt6 desktop app"
  GPUPROF_HAVE_QT "apt-get install qt6-base-dev qt6-charts-dev libqt6svg6-dev")
gpuprof_component(GPUPROF_BUILD_TESTS "GoogleTest test suite"
  GPUPROF_HAVE_GTEST "apt-get install libgtest-dev libgmock-dev")
gpuprof_component(GPUPROF_BUILD_BENCH "Google Benchmark benchmarks"
  GPUPROF_HAVE_BENCHMARK "apt-get install libbenchmark-dev")

if(GPUPROF_BUILD_COLLECTOR OR GPUPROF_BUILD_WORKLOADS)
  if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
    # Builds without a GPU present; runs natively on Ampere (sm_80) and Hopper (sm_90),
    # with PTX for newer parts.
    set(CMAKE_CUDA_ARCHITECTURES "80-real;90-real;90-virtual" CACHE STRING "CUDA architectures")
  endif()
endif()

function(gpuprof_print_feature_summary)
  feature_summary(WHAT ENABLED_FEATURES DISABLED_FEATURES
    DESCRIPTION "gpuprof components:" QUIET_ON_EMPTY)
endfunction()
