# Finds the libraries gpuprof builds on. Everything comes from Debian packages
# or from the CUDA toolkit; nothing is vendored.
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(SQLite3 REQUIRED)
find_package(ZLIB REQUIRED)
find_package(fmt REQUIRED)
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  # Debian's libcli11-dev ships only the header and a pkg-config file.
  find_path(CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE "${CLI11_INCLUDE_DIR}")
endif()
find_package(RapidJSON REQUIRED)  # SAX parsing streams large traces; Writer emits JSON reports
if(NOT TARGET RapidJSON::RapidJSON)
  add_library(RapidJSON::RapidJSON INTERFACE IMPORTED)
  target_include_directories(RapidJSON::RapidJSON INTERFACE "${RapidJSON_INCLUDE_DIRS}${RAPIDJSON_INCLUDE_DIRS}")
endif()

# CUDA toolkit: the collector needs CUPTI, the workloads need nvcc and the libraries.
if(NOT DEFINED CUDAToolkit_ROOT AND EXISTS /usr/local/cuda)
  set(CUDAToolkit_ROOT /usr/local/cuda)
endif()
# NVIDIA's installers put nvcc in ${CUDAToolkit_ROOT}/bin, which is not on a fresh
# machine's PATH; without this the CUDA language would silently be "not found".
if(NOT DEFINED CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX} AND EXISTS "${CUDAToolkit_ROOT}/bin/nvcc")
  set(CMAKE_CUDA_COMPILER "${CUDAToolkit_ROOT}/bin/nvcc" CACHE FILEPATH "CUDA compiler")
endif()
# Debian 12's CMake 3.25.1 sets a deprecation note on CUDA::nvToolsExt without
# checking that the target exists, and CUDA 12+ ships no libnvToolsExt, so the
# stock module fails the configure step. The note is only written for projects
# that require CMake >= 3.25, so the search runs as if we required 3.24.
if(CMAKE_VERSION VERSION_LESS 3.26)
  set(gpuprof_required_cmake "${CMAKE_MINIMUM_REQUIRED_VERSION}")
  set(CMAKE_MINIMUM_REQUIRED_VERSION 3.24)
  find_package(CUDAToolkit QUIET)
  set(CMAKE_MINIMUM_REQUIRED_VERSION "${gpuprof_required_cmake}")
else()
  find_package(CUDAToolkit QUIET)
endif()
set(GPUPROF_HAVE_CUPTI OFF)
if(CUDAToolkit_FOUND)
  find_path(GPUPROF_CUPTI_INCLUDE_DIR cupti.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} "${CUDAToolkit_ROOT}/extras/CUPTI/include")
  find_library(GPUPROF_CUPTI_LIBRARY cupti
    HINTS ${CUDAToolkit_LIBRARY_DIR} "${CUDAToolkit_ROOT}/lib64" "${CUDAToolkit_ROOT}/extras/CUPTI/lib64")
  if(GPUPROF_CUPTI_INCLUDE_DIR AND GPUPROF_CUPTI_LIBRARY)
    set(GPUPROF_HAVE_CUPTI ON)
    add_library(gpuprof_cupti INTERFACE)
    target_include_directories(gpuprof_cupti SYSTEM INTERFACE "${GPUPROF_CUPTI_INCLUDE_DIR}")
    target_link_libraries(gpuprof_cupti INTERFACE "${GPUPROF_CUPTI_LIBRARY}")
    add_library(gpuprof::cupti ALIAS gpuprof_cupti)
  endif()
endif()
# The workloads also need cuDNN 9 and NCCL; they ship beside the toolkit, not in it.
if(CUDAToolkit_FOUND)
  find_path(GPUPROF_CUDNN_INCLUDE_DIR cudnn.h HINTS ${CUDAToolkit_INCLUDE_DIRS} "${CUDAToolkit_ROOT}/include")
  find_library(GPUPROF_CUDNN_LIBRARY cudnn HINTS ${CUDAToolkit_LIBRARY_DIR} "${CUDAToolkit_ROOT}/lib64")
  find_path(GPUPROF_NCCL_INCLUDE_DIR nccl.h HINTS ${CUDAToolkit_INCLUDE_DIRS} "${CUDAToolkit_ROOT}/include")
  find_library(GPUPROF_NCCL_LIBRARY nccl HINTS ${CUDAToolkit_LIBRARY_DIR} "${CUDAToolkit_ROOT}/lib64")
endif()
include(CheckLanguage)
check_language(CUDA)
set(GPUPROF_HAVE_NVCC OFF)
if(CMAKE_CUDA_COMPILER AND CUDAToolkit_FOUND)
  set(GPUPROF_HAVE_NVCC ON)
endif()

find_package(Qt6 QUIET COMPONENTS Widgets Charts Test)
set(GPUPROF_HAVE_QT OFF)
if(Qt6Widgets_FOUND AND Qt6Charts_FOUND AND Qt6Test_FOUND)
  set(GPUPROF_HAVE_QT ON)
endif()

find_package(GTest QUIET)
find_package(benchmark QUIET)
