# The calculator module's sources and definitions, relative to CALC_ROOT (the repository): the
# native build's own files, never copies. calc/CMakeLists.txt compiles them all to WebAssembly;
# fuzz/ compiles CALC_OWN_SOURCES natively for fuzz_calc, with the engine and story libraries.
set(CALC_INPUT_SOURCES ${CALC_ROOT}/render/inputs/config_values.cpp
  ${CALC_ROOT}/render/inputs/numbers_json.cpp ${CALC_ROOT}/render/inputs/plan_json.cpp)
set(CALC_OWN_SOURCES ${CALC_ROOT}/calc/calc.cpp ${CALC_INPUT_SOURCES})
file(GLOB CALC_ENGINE_SOURCES CONFIGURE_DEPENDS ${CALC_ROOT}/engine/*.cpp)
set(CALC_SOURCES ${CALC_ROOT}/calc/calc.cpp ${CALC_ENGINE_SOURCES}
  ${CALC_ROOT}/story/storyboard/settings.cpp ${CALC_ROOT}/story/storyboard/units.cpp
  ${CALC_ROOT}/story/storyboard/limits.cpp ${CALC_ROOT}/story/storyboard/diagnostics.cpp
  ${CALC_ROOT}/story/storyboard/problems.cpp ${CALC_ROOT}/story/storyboard/setting_text.cpp
  ${CALC_ROOT}/story/text/plain_numbers.cpp
  ${CALC_INPUT_SOURCES})
# No exceptions in the browser: nlohmann_json aborts instead (the module parses only what it
# checks first), and has no filesystem (libc++ for wasm32 has none).
set(CALC_DEFINITIONS JSON_NOEXCEPTION JSON_HAS_FILESYSTEM=0 JSON_HAS_EXPERIMENTAL_FILESYSTEM=0)
