# AxonC.cmake - CMake rules for Axon programs: turn NAME.axon into the
# shape-checking header NAME.h with axonc, as part of a target's build.
#
#   list(APPEND CMAKE_MODULE_PATH /usr/local/share/axonc/cmake)
#   include(AxonC)
#   add_executable(app main.c)
#   axonc_add_header(app model.axon)                  # -> #include "model.h"
#   axonc_add_header(app nets/cnn.axon PREFIX cnn ELEM_TYPE f16)
#   axonc_add_header(app llama.axon INCLUDE_DIRS blocks)   # import "norm.axon"
#
# The header goes to ${CMAKE_CURRENT_BINARY_DIR}/axonc/NAME.h, which is added
# to the target's include directories; it is remade when NAME.axon, a file it
# imports (directly or not: axonc's depfile lists them, CMake 3.20 or later
# reads it), or the axonc executable changes.  AXONC_EXECUTABLE may be set to the axonc to use;
# otherwise it is looked for next to this module's install prefix and on PATH.

if(NOT AXONC_EXECUTABLE)
  get_filename_component(_axonc_prefix "${CMAKE_CURRENT_LIST_DIR}/../../.." ABSOLUTE)
  find_program(AXONC_EXECUTABLE axonc HINTS "${_axonc_prefix}/bin")
endif()
if(NOT AXONC_EXECUTABLE)
  message(FATAL_ERROR "AxonC: axonc not found; set AXONC_EXECUTABLE to its path")
endif()

# axonc_add_header(TARGET FILE.axon [PREFIX P] [ELEM_TYPE T] [OUTPUT PATH]
#                  [INCLUDE_DIRS DIR...] [FLAGS F...])
# INCLUDE_DIRS: where imported files are looked for after the importing
# file's directory (axonc -I; relative to the current source directory).
# FLAGS: more options for axonc emit (FLAGS -Werror: a warning fails the
# build); the variable AXONC_FLAGS adds options to every header.
function(axonc_add_header target axon_file)
  cmake_parse_arguments(AX "" "PREFIX;ELEM_TYPE;OUTPUT" "FLAGS;INCLUDE_DIRS" ${ARGN})
  if(AX_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "axonc_add_header: unexpected arguments: ${AX_UNPARSED_ARGUMENTS}")
  endif()
  get_filename_component(src "${axon_file}" ABSOLUTE)
  get_filename_component(stem "${axon_file}" NAME_WE)
  if(AX_OUTPUT)
    set(out "${AX_OUTPUT}")
  else()
    set(out "${CMAKE_CURRENT_BINARY_DIR}/axonc/${stem}.h")
  endif()
  get_filename_component(outdir "${out}" DIRECTORY)
  set(args emit "${src}" -o "${out}")
  if(AX_PREFIX)
    list(APPEND args --prefix "${AX_PREFIX}")
  endif()
  if(AX_ELEM_TYPE)
    list(APPEND args --elem-type "${AX_ELEM_TYPE}")
  endif()
  foreach(dir IN LISTS AX_INCLUDE_DIRS)
    get_filename_component(dir "${dir}" ABSOLUTE)
    list(APPEND args -I "${dir}")
  endforeach()
  list(APPEND args ${AXONC_FLAGS} ${AX_FLAGS})
  # The imported files come from axonc's depfile (paths absolute: the source
  # and the -I directories are).  CMake reads a depfile for every generator
  # from 3.20 on; before, a file's imports are not tracked.
  set(depends_on_imports "")
  if(CMAKE_VERSION VERSION_GREATER_EQUAL 3.20)
    get_filename_component(outname "${out}" NAME_WE)
    set(dep "${outdir}/${outname}.d")
    list(APPEND args -MD -MF "${dep}")
    set(depends_on_imports DEPFILE "${dep}")
  else()
    file(STRINGS "${src}" imports REGEX "^[ \t]*import")
  endif()
  if(CMAKE_VERSION VERSION_LESS 3.20 AND imports)
    message(WARNING "AxonC: CMake ${CMAKE_VERSION} reads no depfile: a change to a file that "
                    "${axon_file} imports does not remake ${stem}.h (CMake 3.20 does)")
  endif()
  cmake_policy(PUSH)
  if(POLICY CMP0116)
    cmake_policy(SET CMP0116 NEW)     # depfile paths as written (absolute)
  endif()
  add_custom_command(
    OUTPUT "${out}"
    COMMAND "${CMAKE_COMMAND}" -E make_directory "${outdir}"
    COMMAND "${AXONC_EXECUTABLE}" ${args}
    DEPENDS "${src}" "${AXONC_EXECUTABLE}"
    ${depends_on_imports}
    COMMENT "axonc: ${axon_file} -> ${stem}.h"
    VERBATIM)
  cmake_policy(POP)
  target_sources(${target} PRIVATE "${out}")
  target_include_directories(${target} PRIVATE "${outdir}")
endfunction()
