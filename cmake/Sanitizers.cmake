# Sanitized builds: TLC_SANITIZE (AddressSanitizer + UndefinedBehaviorSanitizer in every target,
# for running the test suite) and TLC_FUZZ (that plus libFuzzer's coverage, and the harnesses of
# test/fuzz). Each belongs in its own build directory (build-asan, build-fuzz).
if(NOT (TLC_SANITIZE OR TLC_FUZZ))
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang" OR NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
  message(FATAL_ERROR "TLC_SANITIZE and TLC_FUZZ need clang (-DCMAKE_C_COMPILER=clang-22 "
                      "-DCMAKE_CXX_COMPILER=clang++-22)")
endif()
# Any report ends the process: a fuzzer or a lit test then sees a crash, not a log line.
add_compile_options(-fsanitize=address,undefined -fno-sanitize-recover=all
                    -fno-omit-frame-pointer -g)
add_link_options(-fsanitize=address,undefined)
if(TLC_FUZZ)
  add_compile_options(-fsanitize=fuzzer-no-link)
endif()
