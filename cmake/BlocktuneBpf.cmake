# The BPF probes of core (monitor --latency's block latency probe,
# core/monitor/bpf; the readahead probe, core/readahead/bpf): each program
# compiled with clang for the BPF target against a vmlinux.h dumped from the
# build machine's kernel BTF (CO-RE: libbpf relocates it for the running
# kernel), then turned into a libbpf skeleton header that its loader
# includes. Without the tools the loaders say "built without BPF support".
find_program(BLOCKTUNE_BPF_CLANG NAMES clang clang-16 clang-15 clang-14)
find_program(BLOCKTUNE_BPFTOOL bpftool PATHS /usr/sbin /sbin)
find_program(BLOCKTUNE_LLVM_STRIP NAMES llvm-strip llvm-strip-16 llvm-strip-15 llvm-strip-14)
# GLOBAL: blocktune_core links it from the folders' CMakeLists.
pkg_check_modules(LIBBPF IMPORTED_TARGET GLOBAL libbpf)
set(BLOCKTUNE_VMLINUX_BTF /sys/kernel/btf/vmlinux CACHE FILEPATH
    "Kernel BTF that vmlinux.h for the BPF programs is dumped from")
set(_bpf_found OFF)
if(BLOCKTUNE_BPF_CLANG AND BLOCKTUNE_BPFTOOL AND LIBBPF_FOUND AND EXISTS "${BLOCKTUNE_VMLINUX_BTF}")
    set(_bpf_found ON)
endif()
option(BLOCKTUNE_BPF "Build the BPF probes: block latency, readahead (needs clang, bpftool, libbpf and kernel BTF)"
       ${_bpf_found})

if(BLOCKTUNE_BPF AND NOT _bpf_found)
    message(WARNING "BLOCKTUNE_BPF: clang (${BLOCKTUNE_BPF_CLANG}), bpftool (${BLOCKTUNE_BPFTOOL}), libbpf "
                    "(${LIBBPF_FOUND}) or ${BLOCKTUNE_VMLINUX_BTF} missing: building without the BPF probes")
endif()
set(BLOCKTUNE_BPF_ON OFF)
if(BLOCKTUNE_BPF AND _bpf_found)
    set(BLOCKTUNE_BPF_ON ON)
    message(STATUS "BPF probes: on (${BLOCKTUNE_BPF_CLANG}, ${BLOCKTUNE_BPFTOOL}, libbpf ${LIBBPF_VERSION})")
else()
    message(STATUS "BPF probes: off (monitor --latency and readahead will say \"built without BPF support\")")
endif()

# libbpf's messages for both loaders (core/common/bpfload.cpp).
if(BLOCKTUNE_BPF_ON)
    set_source_files_properties(${CMAKE_CURRENT_LIST_DIR}/../core/common/bpfload.cpp
        TARGET_DIRECTORY blocktune_core PROPERTIES
        SKIP_UNITY_BUILD_INCLUSION ON
        COMPILE_DEFINITIONS BLOCKTUNE_HAVE_BPF=1)
    target_link_libraries(blocktune_core PRIVATE PkgConfig::LIBBPF)
endif()

if(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|i.86|AMD64)$")
    set(BLOCKTUNE_BPF_ARCH x86)
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(aarch64|arm64)$")
    set(BLOCKTUNE_BPF_ARCH arm64)
else()
    set(BLOCKTUNE_BPF_ARCH ${CMAKE_SYSTEM_PROCESSOR})
endif()

# blocktune_bpf_skeleton(NAME LOADER): bpf/NAME.bpf.c (with bpf/NAME.h, the
# layout it shares with its loader) of the calling folder becomes NAME.skel.h,
# which LOADER (a .cpp of blocktune_core in that folder) includes; LOADER is
# compiled with BLOCKTUNE_HAVE_BPF=1. Does nothing without BPF support.
function(blocktune_bpf_skeleton name loader)
    if(NOT BLOCKTUNE_BPF_ON)
        return()
    endif()
    set(src ${CMAKE_CURRENT_SOURCE_DIR}/bpf)
    set(gen ${CMAKE_CURRENT_BINARY_DIR}/bpf)
    file(MAKE_DIRECTORY ${gen})
    # One vmlinux.h per folder: a command's output is a dependency only
    # within the folder that makes it.
    get_property(_dumped DIRECTORY PROPERTY BLOCKTUNE_VMLINUX_DUMPED)
    if(NOT _dumped)
        add_custom_command(OUTPUT ${gen}/vmlinux.h
            COMMAND sh -c "\"$0\" btf dump file \"$1\" format c > vmlinux.h.tmp && mv vmlinux.h.tmp vmlinux.h"
                    ${BLOCKTUNE_BPFTOOL} ${BLOCKTUNE_VMLINUX_BTF}
            WORKING_DIRECTORY ${gen}
            COMMENT "Dumping kernel BTF into vmlinux.h"
            VERBATIM)
        set_property(DIRECTORY PROPERTY BLOCKTUNE_VMLINUX_DUMPED ON)
    endif()
    # -g: the BTF that CO-RE needs; the DWARF is stripped again (a 20x
    # smaller object embedded in the program).
    set(strip true)
    if(BLOCKTUNE_LLVM_STRIP)
        set(strip ${BLOCKTUNE_LLVM_STRIP} -g ${name}.bpf.o)
    endif()
    set(includes)
    foreach(dir ${LIBBPF_INCLUDE_DIRS})
        list(APPEND includes -I${dir})
    endforeach()
    # -mcpu=v3: the atomic add that returns the old value (kernel 5.12+).
    add_custom_command(OUTPUT ${gen}/${name}.bpf.o
        COMMAND ${BLOCKTUNE_BPF_CLANG} -O2 -g -target bpf -mcpu=v3 -D__TARGET_ARCH_${BLOCKTUNE_BPF_ARCH} -Wall -Werror
                -I${gen} -I${src} -I${PROJECT_SOURCE_DIR}/core/common/bpf ${includes} -c ${src}/${name}.bpf.c -o ${name}.bpf.o
        COMMAND ${strip}
        DEPENDS ${src}/${name}.bpf.c ${src}/${name}.h ${PROJECT_SOURCE_DIR}/core/common/bpf/log2bucket.bpf.h ${gen}/vmlinux.h
        WORKING_DIRECTORY ${gen}
        COMMENT "Compiling the BPF program ${name}"
        VERBATIM)
    add_custom_command(OUTPUT ${gen}/${name}.skel.h
        COMMAND sh -c "\"$0\" gen skeleton $1.bpf.o name $1 > $1.skel.h.tmp && mv $1.skel.h.tmp $1.skel.h"
                ${BLOCKTUNE_BPFTOOL} ${name}
        DEPENDS ${gen}/${name}.bpf.o
        WORKING_DIRECTORY ${gen}
        COMMENT "Generating the BPF skeleton of ${name}"
        VERBATIM)
    add_custom_target(blocktune_bpf_${name} DEPENDS ${gen}/${name}.skel.h)
    add_dependencies(blocktune_core blocktune_bpf_${name})
    # The skeleton is C with libbpf's macros: one translation unit of its
    # own, its header a system header (our warnings are not for generated code).
    set_source_files_properties(${loader} TARGET_DIRECTORY blocktune_core PROPERTIES
        SKIP_UNITY_BUILD_INCLUSION ON
        COMPILE_DEFINITIONS BLOCKTUNE_HAVE_BPF=1
        OBJECT_DEPENDS ${gen}/${name}.skel.h)
    target_include_directories(blocktune_core SYSTEM PRIVATE ${gen})
    target_link_libraries(blocktune_core PRIVATE PkgConfig::LIBBPF)
endfunction()
