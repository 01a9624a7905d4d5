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
