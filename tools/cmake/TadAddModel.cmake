# tad_add_model: compile a tad program into a shared library at build time.
#
#   tad_add_model(<name> SOURCE <model.mlir>
#                 [VJP <function>...] [JVP <function>...]
#                 [TARGET cpu|cuda] [OPT 0|1|2|3]
#                 [RULES <rules.yaml>...] [TADC_ARGS <argument>...])
#
# Runs tad::tadc on SOURCE (relative paths are relative to the current
# source directory) and writes lib<name>.so and its C header <name>.h into
# the current binary directory. VJP and JVP name the functions whose
# reverse- and forward-mode derivatives (<f>_vjp, <f>_jvp) are generated,
# TARGET and OPT are tadc's --target and -O (tadc's defaults if omitted),
# RULES are derivative rule files (--rules) and TADC_ARGS go to tadc as
# they are. Both files are rebuilt when SOURCE, a RULES file, tadc or the
# tad runtime change.
#
# <name> is an imported shared library target: linking it
#
#   target_link_libraries(app PRIVATE <name>)
#
# builds the model first, adds the directory of <name>.h and tad/runtime.h
# to the include path, and links lib<name>.so (found at run time through
# the build tree's run path; install it with
# install(IMPORTED_RUNTIME_ARTIFACTS <name>)).

function(tad_add_model name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "SOURCE;TARGET;OPT"
                        "VJP;JVP;RULES;TADC_ARGS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR
            "tad_add_model(${name}): unknown arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SOURCE)
    message(FATAL_ERROR "tad_add_model(${name}): SOURCE <model.mlir> is required")
  endif()
  if(TARGET ${name})
    message(FATAL_ERROR "tad_add_model(${name}): a target '${name}' already exists")
  endif()

  get_filename_component(source "${ARG_SOURCE}" ABSOLUTE
                         BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
  set(args)
  if(ARG_VJP)
    list(JOIN ARG_VJP "," functions)
    list(APPEND args "--vjp=${functions}")
  endif()
  if(ARG_JVP)
    list(JOIN ARG_JVP "," functions)
    list(APPEND args "--jvp=${functions}")
  endif()
  if(DEFINED ARG_TARGET)
    if(NOT ARG_TARGET MATCHES "^(cpu|cuda)$")
      message(FATAL_ERROR
              "tad_add_model(${name}): TARGET is cpu or cuda, not '${ARG_TARGET}'")
    endif()
    list(APPEND args "--target=${ARG_TARGET}")
  endif()
  if(DEFINED ARG_OPT)
    if(NOT ARG_OPT MATCHES "^[0-3]$")
      message(FATAL_ERROR
              "tad_add_model(${name}): OPT is 0, 1, 2 or 3, not '${ARG_OPT}'")
    endif()
    list(APPEND args "-O${ARG_OPT}")
  endif()
  set(rules)
  foreach(file IN LISTS ARG_RULES)
    get_filename_component(file "${file}" ABSOLUTE
                           BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND rules "${file}")
    list(APPEND args "--rules=${file}")
  endforeach()
  list(APPEND args ${ARG_TADC_ARGS})

  set(library "${CMAKE_CURRENT_BINARY_DIR}/lib${name}.so")
  set(includeDir "${CMAKE_CURRENT_BINARY_DIR}/${name}.tad")
  set(header "${includeDir}/${name}.h")
  # An imported target's include directories must exist when CMake
  # generates the build.
  file(MAKE_DIRECTORY "${includeDir}")
  set(depends "${source}" ${rules} "$<TARGET_FILE:tad::tadc>"
              "$<TARGET_FILE:tad::runtime>")
  file(RELATIVE_PATH shownSource "${CMAKE_SOURCE_DIR}" "${source}")
  add_custom_command(
    OUTPUT "${library}"
    COMMAND tad::tadc "${source}" ${args} -o "${library}"
    DEPENDS ${depends}
    COMMENT "tadc: compiling ${shownSource} into lib${name}.so"
    VERBATIM)
  add_custom_command(
    OUTPUT "${header}"
    COMMAND tad::tadc "${source}" ${args} --emit=header -o "${header}"
    DEPENDS ${depends}
    COMMENT "tadc: writing ${name}.h for ${shownSource}"
    VERBATIM)
  add_custom_target(${name}.tadc DEPENDS "${library}" "${header}")

  add_library(${name} SHARED IMPORTED GLOBAL)
  set_target_properties(${name} PROPERTIES
    IMPORTED_LOCATION "${library}"
    # tadc's modules have no DT_SONAME: programs record lib<name>.so and
    # find it through their run path.
    IMPORTED_NO_SONAME TRUE
    INTERFACE_INCLUDE_DIRECTORIES "${includeDir}"
    INTERFACE_LINK_LIBRARIES tad::headers)
  add_dependencies(${name} ${name}.tadc)
endfunction()
