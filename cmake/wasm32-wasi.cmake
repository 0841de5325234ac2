# Toolchain for the page's calculator module (calc/): clang and lld targeting wasm32-wasi with
# Debian's wasi-libc, libc++ and compiler-rt for wasm32 (scripts/deps.sh installs them). The
# clang++ to use comes from the parent build as SHARDREEL_WASM_CXX.
set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR wasm32)
set(CMAKE_CXX_COMPILER ${SHARDREEL_WASM_CXX})
set(CMAKE_CXX_COMPILER_TARGET wasm32-wasi)
set(CMAKE_SYSROOT /usr)

set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
