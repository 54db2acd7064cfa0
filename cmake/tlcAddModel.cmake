# tlc_add_model(): compiles a .tl/.mlir model with the tlc driver at build time and links it in.
#
#   tlc_add_model(<target> SOURCE <file.tl|file.mlir> [NAME <name>]
#                 [TARGET <x86_64|aarch64|cuda|vulkan|metal>] [CPU <cpu>...] [GPU <sm_80|...>]
#                 [OPTIONS <driver args>...] [DEPENDS <files>...])
#
# Runs `tlc <source> -o <dir>/<name>.o --header <dir>/<name>.h --name <name> [--target T]
# [--cpu C] [--gpu G] [OPTIONS...]` at build time, where <dir> is
# ${CMAKE_CURRENT_BINARY_DIR}/tlc_models/<target>. Several CPUs (`CPU x86-64-v3 x86-64-v4`, or
# one comma-separated value) make one object with a variant per CPU, chosen at run time
# (`--cpu=x86-64-v3,x86-64-v4`; docs/generated-abi.md). The function adds the object to
# <target>'s sources, puts <dir> on its include path (so `#include "<name>.h"` works) and links
# tlc::tlcrt. GPU targets (cuda, vulkan, metal) give the header of docs/generated-abi.md's GPU section
# (NAME_init / NAME_run over device buffers / NAME_release); libtlcrt loads the driver at run
# time, so nothing GPU is linked. NAME defaults
# to the source's stem and must be a C identifier. The model is recompiled when the source, the
# files listed in DEPENDS (e.g. .npy weights it loads) or the driver change.
#
# Needs the targets tlc::tlc (the driver, an executable) and tlc::tlcrt: find_package(tlc) defines
# both; inside the tlc build tree they are aliases of the in-tree targets.
include_guard(GLOBAL)

function(tlc_add_model target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "SOURCE;NAME;TARGET;GPU" "CPU;OPTIONS;DEPENDS")
  if(arg_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "tlc_add_model(${target}): unexpected arguments: ${arg_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT arg_SOURCE)
    message(FATAL_ERROR "tlc_add_model(${target}): SOURCE <file.tl|file.mlir> is required")
  endif()
  if(NOT TARGET ${target})
    message(FATAL_ERROR "tlc_add_model(${target}): no target named '${target}'; "
                        "call add_executable/add_library first")
  endif()
  get_target_property(type ${target} TYPE)
  if(NOT type MATCHES "^(EXECUTABLE|STATIC_LIBRARY|SHARED_LIBRARY|MODULE_LIBRARY|OBJECT_LIBRARY)$")
    message(FATAL_ERROR "tlc_add_model(${target}): '${target}' is a ${type}; it needs a target "
                        "that compiles sources (an executable or a non-interface library)")
  endif()
  foreach(needed tlc::tlc tlc::tlcrt)
    if(NOT TARGET ${needed})
      message(FATAL_ERROR "tlc_add_model(${target}): target ${needed} is not defined; "
                          "call find_package(tlc REQUIRED) first")
    endif()
  endforeach()

  get_filename_component(source "${arg_SOURCE}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  if(NOT EXISTS "${source}")
    message(FATAL_ERROR "tlc_add_model(${target}): SOURCE '${arg_SOURCE}' does not exist "
                        "(looked for ${source})")
  endif()
  if(arg_NAME)
    set(name "${arg_NAME}")
  else()
    get_filename_component(name "${source}" NAME_WLE)
  endif()
  if(NOT name MATCHES "^[A-Za-z_][A-Za-z0-9_]*$")
    message(FATAL_ERROR "tlc_add_model(${target}): model name '${name}' is not a C identifier; "
                        "pass NAME <name>")
  endif()

  # The driver: in the tlc build tree a real target (a file-level dependency makes a rebuilt
  # compiler recompile the models); installed, an imported executable that must exist.
  get_target_property(driver_imported tlc::tlc IMPORTED)
  if(driver_imported)
    get_target_property(driver_location tlc::tlc IMPORTED_LOCATION)
    if(driver_location AND NOT EXISTS "${driver_location}")
      message(FATAL_ERROR "tlc_add_model(${target}): the tlc compiler driver was not found at "
                          "'${driver_location}'; install it or set TLC_EXECUTABLE to its path")
    endif()
  endif()

  set(dir "${CMAKE_CURRENT_BINARY_DIR}/tlc_models/${target}")
  set(object "${dir}/${name}.o")
  set(header "${dir}/${name}.h")
  file(MAKE_DIRECTORY "${dir}")

  set(args "${source}" -o "${object}" --header "${header}" --name "${name}")
  if(arg_TARGET)
    list(APPEND args --target "${arg_TARGET}")
  endif()
  if(arg_CPU)
    list(JOIN arg_CPU "," cpus)
    list(APPEND args "--cpu=${cpus}")
  endif()
  if(arg_GPU)
    list(APPEND args "--gpu=${arg_GPU}")
  endif()
  list(APPEND args ${arg_OPTIONS})

  set(depends "${source}" "$<TARGET_FILE:tlc::tlc>")
  foreach(dep IN LISTS arg_DEPENDS)
    get_filename_component(dep "${dep}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND depends "${dep}")
  endforeach()
  if(NOT driver_imported)
    list(APPEND depends tlc::tlc) # target-level dependency: build the driver first
  endif()

  file(RELATIVE_PATH shown "${CMAKE_BINARY_DIR}" "${object}")
  add_custom_command(
    OUTPUT "${object}" "${header}"
    COMMAND "$<TARGET_FILE:tlc::tlc>" ${args}
    DEPENDS ${depends}
    COMMENT "Compiling model ${name} with tlc: ${shown}"
    VERBATIM)

  set_source_files_properties("${object}" PROPERTIES EXTERNAL_OBJECT TRUE GENERATED TRUE)
  set_source_files_properties("${header}" PROPERTIES GENERATED TRUE HEADER_FILE_ONLY TRUE)
  # Listing the header as a source makes it exist before any of the target's files that
  # include it are compiled.
  target_sources(${target} PRIVATE "${object}" "${header}")
  # PUBLIC: the generated header includes <tlc/runtime.h>, so a library exposing the model
  # passes both on to its users.
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${dir}>")
  target_link_libraries(${target} PUBLIC tlc::tlcrt)
endfunction()
