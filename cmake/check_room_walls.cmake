# The walls between rooms: every #include "gpuprof/<room>/..." in a room's sources, and every gpuprof::<room>
# its CMakeLists.txt links, must name the room itself or a room below it in the table. ctest runs it on the
# source tree (tests/scripts: room_walls) and on a small tree with wrong includes (room_walls_script):
#   cmake -DROOT=<source tree> [-DREQUIRE_EVERY_ROOM=OFF] -P cmake/check_room_walls.cmake
# A room's headers are gpuprof/<room>/; tests/ and bench/ may include anything and are not read. The compiler
# alone misses wrong includes: a header is often compiled only by targets (tests, the command) that link every
# room.

cmake_minimum_required(VERSION 3.25)

# room         folder                 may include (and, with them, whatever they may include)
set(table [[
trace          schemas
units          analyzer/units
progress       analyzer/progress      trace units
importers      analyzer/importers     trace units progress
synthetic      analyzer/synthetic     trace
analysis       analyzer/analysis      trace units importers
idle           analyzer/idle          analysis
summaries      analyzer/summaries     analysis
memory         analyzer/memory        analysis
rank           analyzer/rank          idle summaries memory
job            analyzer/job           rank
report         analyzer/report        job
comparison     analyzer/comparison    report
exporters      analyzer/exporters     job
predict        analyzer/predict       comparison synthetic
study          analyzer/study         predict
launcher       collector/launcher
collector      collector              launcher trace
cli            cli                    study exporters collector
gui            gui                    study exporters
workloads      workloads
]])

if(NOT DEFINED ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<source tree> [-DREQUIRE_EVERY_ROOM=OFF] -P check_room_walls.cmake")
endif()
if(NOT DEFINED REQUIRE_EVERY_ROOM)
  set(REQUIRE_EVERY_ROOM ON)
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)
set(problems "")

# The table: rooms, their folders and the rooms directly below them.
string(REPLACE "\n" ";" rows "${table}")
set(rooms "")
foreach(row IN LISTS rows)
  string(STRIP "${row}" row)
  if(row STREQUAL "")
    continue()
  endif()
  string(REGEX REPLACE "[ \t]+" ";" fields "${row}")
  list(POP_FRONT fields room folder)
  list(APPEND rooms ${room})
  set(folder_${room} "${folder}")
  set(below_${room} ${fields})
endforeach()
foreach(room IN LISTS rooms)
  foreach(dep IN LISTS below_${room})
    if(NOT dep IN_LIST rooms)
      list(APPEND problems "the table: room ${room} names ${dep}, which is no room")
    endif()
  endforeach()
endforeach()

# What each room may include: the closure of the table, grown until it stops changing.
foreach(room IN LISTS rooms)
  set(reach_${room} ${below_${room}})
endforeach()
set(changed TRUE)
while(changed)
  set(changed FALSE)
  foreach(room IN LISTS rooms)
    set(grown ${reach_${room}})
    foreach(dep IN LISTS reach_${room})
      list(APPEND grown ${reach_${dep}})
    endforeach()
    list(REMOVE_DUPLICATES grown)
    list(LENGTH grown after)
    list(LENGTH reach_${room} before)
    if(NOT after EQUAL before)
      set(reach_${room} ${grown})
      set(changed TRUE)
    endif()
  endforeach()
endwhile()
foreach(room IN LISTS rooms)
  if(room IN_LIST reach_${room})
    list(APPEND problems "the table: room ${room} is below itself (a circle: ${reach_${room}})")
  endif()
endforeach()

# Every room's folder is there, and every folder of analyzer/ is a room: a new room cannot go unchecked.
if(REQUIRE_EVERY_ROOM)
  foreach(room IN LISTS rooms)
    if(NOT IS_DIRECTORY "${ROOT}/${folder_${room}}")
      list(APPEND problems "the table: room ${room}'s folder ${folder_${room}} is not there")
    endif()
  endforeach()
  file(GLOB analyzer_folders LIST_DIRECTORIES true RELATIVE "${ROOT}" "${ROOT}/analyzer/*")
  foreach(folder IN LISTS analyzer_folders)
    if(IS_DIRECTORY "${ROOT}/${folder}")
      set(known FALSE)
      foreach(room IN LISTS rooms)
        if(folder STREQUAL folder_${room})
          set(known TRUE)
        endif()
      endforeach()
      if(NOT known)
        list(APPEND problems "${folder}: a folder of analyzer/ that is no room in the table")
      endif()
    endif()
  endforeach()
endif()

# Each file belongs to the room with the longest folder holding it (collector/launcher before collector).
set(checked 0)
set(wrong 0)
foreach(room IN LISTS rooms)
  set(folder "${folder_${room}}")
  file(GLOB_RECURSE sources RELATIVE "${ROOT}" "${ROOT}/${folder}/*.cpp" "${ROOT}/${folder}/*.hpp"
       "${ROOT}/${folder}/*.h" "${ROOT}/${folder}/*.cc" "${ROOT}/${folder}/*.cu" "${ROOT}/${folder}/*.cuh"
       "${ROOT}/${folder}/*.inl" "${ROOT}/${folder}/CMakeLists.txt")
  foreach(source IN LISTS sources)
    set(owner ${room})
    string(LENGTH "${folder}" owner_length)
    foreach(other IN LISTS rooms)
      string(LENGTH "${folder_${other}}" other_length)
      if(other_length GREATER owner_length AND source MATCHES "^${folder_${other}}/")
        set(owner ${other})
        set(owner_length ${other_length})
      endif()
    endforeach()
    if(NOT owner STREQUAL room)
      continue()
    endif()
    math(EXPR checked "${checked} + 1")
    if(source MATCHES "CMakeLists.txt$")
      # Links: a library links rooms below it only (gpuprof::warnings and other targets that are no room pass).
      set(verb links)
      file(STRINGS "${ROOT}/${source}" lines REGEX "gpuprof::")
      string(REGEX MATCHALL "gpuprof::[A-Za-z0-9_]+" named "${lines}")
      set(uses "")
      foreach(target IN LISTS named)
        string(REPLACE "gpuprof::" "" target "${target}")
        if(target IN_LIST rooms)
          list(APPEND uses "${target}|gpuprof::${target}")
        endif()
      endforeach()
    else()
      set(verb includes)
      file(STRINGS "${ROOT}/${source}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[<\"]gpuprof/[A-Za-z0-9_]+/")
      set(uses "")
      foreach(line IN LISTS lines)
        string(REGEX MATCH "gpuprof/([A-Za-z0-9_]+)/[^\">]*" header "${line}")
        list(APPEND uses "${CMAKE_MATCH_1}|${header}")
      endforeach()
    endif()
    foreach(use IN LISTS uses)
      string(REPLACE "|" ";" use "${use}")
      list(GET use 0 target)
      list(GET use 1 header)
      if(target STREQUAL room OR target IN_LIST reach_${room})
        continue()
      endif()
      math(EXPR wrong "${wrong} + 1")
      if(NOT target IN_LIST rooms)
        list(APPEND problems "${source}: room ${room} ${verb} ${header}, and ${target} is no room in the table")
      else()
        string(REPLACE ";" " " allowed "${reach_${room}}")
        string(CONCAT problem "${source}: room ${room} ${verb} ${header} of room ${target}, not below it "
                              "(${room} may include: ${allowed})")
        list(APPEND problems "${problem}")
      endif()
    endforeach()
  endforeach()
endforeach()

if(problems)
  string(REPLACE ";" "\n  " listed "${problems}")
  message(FATAL_ERROR "room walls: ${wrong} includes or links across a wall, in ${checked} files read:\n  ${listed}\n"
                      "A room includes only rooms below it (the table in cmake/check_room_walls.cmake, the rooms' "
                      "README.md files): move the code down, or, where the room really sits above, change the table "
                      "and the CMake links together.")
endif()
list(LENGTH rooms room_count)
message(STATUS "room walls: ${checked} files of ${room_count} rooms read, every include and link goes down")
