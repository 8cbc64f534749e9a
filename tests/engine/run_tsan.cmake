# cmake -DSRC=<source root> -DBIN=<tsan build dir> -DCC=<C compiler> -P run_tsan.cmake
# Configure a ThreadSanitizer build, build the engine tests there, run them; any data race
# makes the test fail (halt_on_error=1).
foreach(var SRC BIN CC)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "run_tsan.cmake: -D${var}=... is required")
  endif()
endforeach()

execute_process(
  COMMAND ${CMAKE_COMMAND} -S ${SRC} -B ${BIN} -DCUZK_TSAN=ON -DCMAKE_BUILD_TYPE=RelWithDebInfo
          -DCMAKE_C_COMPILER=${CC}
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "configuring the ThreadSanitizer build in ${BIN} failed (${rc})")
endif()
execute_process(
  COMMAND ${CMAKE_COMMAND} --build ${BIN} --target test_engine_prims test_engine_pipeline -j 2
  RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "building the engine tests with ThreadSanitizer failed (${rc})")
endif()

set(ENV{TSAN_OPTIONS} "halt_on_error=1 second_deadlock_stack=1")
foreach(t test_engine_prims test_engine_pipeline)
  execute_process(COMMAND ${BIN}/tests/engine/${t} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${t} failed under ThreadSanitizer (exit ${rc})")
  endif()
  message(STATUS "${t}: passed under ThreadSanitizer")
endforeach()
