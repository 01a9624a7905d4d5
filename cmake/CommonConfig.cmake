# One interface target that every blocktune target links: language level,
# warnings and the Qt defines we hold ourselves to.
add_library(blocktune_common INTERFACE)
add_library(blocktune::common ALIAS blocktune_common)

target_compile_features(blocktune_common INTERFACE cxx_std_20)
set(CMAKE_CXX_EXTENSIONS OFF)

target_compile_options(blocktune_common INTERFACE
    -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wold-style-cast
    -Wcast-align -Woverloaded-virtual -Wformat=2 -Wimplicit-fallthrough
    $<$<BOOL:${BLOCKTUNE_WERROR}>:-Werror>)

target_compile_definitions(blocktune_common INTERFACE
    QT_NO_CAST_FROM_ASCII
    QT_NO_CAST_TO_ASCII
    QT_NO_CONTEXTLESS_CONNECT
    QT_NO_URL_CAST_FROM_STRING
    QT_NO_NARROWING_CONVERSIONS_IN_CONNECT
    QT_USE_QSTRINGBUILDER
    BLOCKTUNE_VERSION="${PROJECT_VERSION}")

# ASan + UBSan for every target (BLOCKTUNE_SANITIZE): the first report aborts
# the process (-fno-sanitize-recover=all), so a test fails on it; leaks are
# reported at exit by LeakSanitizer (tests/CMakeLists.txt sets the options).
if(BLOCKTUNE_SANITIZE)
    set(_blocktune_sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all)
    target_compile_options(blocktune_common INTERFACE ${_blocktune_sanitizers} -fno-omit-frame-pointer)
    target_link_options(blocktune_common INTERFACE ${_blocktune_sanitizers})
    target_compile_definitions(blocktune_common INTERFACE BLOCKTUNE_SANITIZED=1)
endif()

# libFuzzer builds (BLOCKTUNE_FUZZ, clang): everything instrumented for
# coverage plus ASan + UBSan; the fuzz targets add -fsanitize=fuzzer
# (tests/fuzz/CMakeLists.txt).
if(BLOCKTUNE_FUZZ)
    set(_blocktune_fuzz_sanitizers -fsanitize=address,undefined -fno-sanitize-recover=all)
    target_compile_options(blocktune_common INTERFACE -fsanitize=fuzzer-no-link ${_blocktune_fuzz_sanitizers}
                           -fno-omit-frame-pointer)
    target_link_options(blocktune_common INTERFACE ${_blocktune_fuzz_sanitizers})
endif()

# Build time (the test command builds three trees on two cores): the two
# libraries compile as a few large translation units (unity builds), the
# tests share precompiled Qt headers (tests/CMakeLists.txt), and lld links
# when it is installed. BLOCKTUNE_FAST_BUILD=OFF compiles file by file, the
# way to find a missing include.
option(BLOCKTUNE_FAST_BUILD "Unity builds of core and ui, precompiled headers for the tests, lld when found" ON)
function(blocktune_unity target)
    if(BLOCKTUNE_FAST_BUILD)
        # A type from one file's anonymous namespace in a class of the same
        # file: GCC sees the file as a header inside the unity source.
        set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 12)
        target_compile_options(${target} PRIVATE $<$<CXX_COMPILER_ID:GNU>:-Wno-subobject-linkage>)
    endif()
endfunction()
if(BLOCKTUNE_FAST_BUILD AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    find_program(BLOCKTUNE_LLD ld.lld)
    if(BLOCKTUNE_LLD)
        target_link_options(blocktune_common INTERFACE -fuse-ld=lld)
    endif()
endif()
# ccache caches a compile that uses a precompiled header only when told the
# header's macros and timestamps are not to be checked (its manual, "Precompiled
# headers").
if(BLOCKTUNE_FAST_BUILD AND CMAKE_CXX_COMPILER_LAUNCHER MATCHES "ccache$")
    set(CMAKE_CXX_COMPILER_LAUNCHER ${CMAKE_COMMAND} -E env
        CCACHE_SLOPPINESS=pch_defines,time_macros,include_file_mtime,include_file_ctime ${CMAKE_CXX_COMPILER_LAUNCHER})
endif()
