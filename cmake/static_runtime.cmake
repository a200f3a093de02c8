# hamcp without the shared C++ runtime (issue 9: idle <= 10 MB). An idle hamcp kept ~2.3 MB of
# shared C++ libraries resident (libstdc++ 1.76, spdlog 0.52, fmt, Boost.JSON/URL): their
# relocations, their start-up code (libstdc++'s locale and iostream init) and the pages around
# what hamcp calls. Linked statically, gold keeps only the functions hamcp uses (--gc-sections) and
# lays the ones it runs out with hamcp's own (cmake/hamcp-text.order; libstdc++.a is compiled one
# section per function). bench/RESULTS-ha.md ("step 12") has the figures.
#
# - The hamcp executable is linked with -static-libstdc++ -static-libgcc and Boost's static
#   libraries (Debian ships libboost_{json,url,container}.a).
# - Debian's spdlog and fmt are shared-only (no .a). Their headers carry the library's code too
#   (the *-inl.h files of header-only use), so cmake/static_runtime/{spdlog,fmt}_lib.cpp compile it
#   into two small static libraries, hamcp_spdlog and hamcp_fmt, with exactly the interface of
#   Debian's spdlog::spdlog and fmt::fmt (same headers, same definitions): no hamcp object
#   changes, nothing is recompiled, ccache keeps hitting. Every target links these two (a shared
#   libspdlog would bring libstdc++.so back).
# - OpenSSL (C, security updates) and libyaml (C) stay shared: see the results for why.
# - GCC builds only (the lanes', the .deb's and the images' compiler; clang builds, e.g. the lint
#   lane's compile database, stay shared). Not for the sanitizer, TSan and fuzz builds (their
#   runtimes want the shared libstdc++) nor Debug;
#   -DHAMCP_STATIC_RUNTIME=OFF restores the fully shared build (e.g. for a distribution that wants
#   every library from its own packages).
option(HAMCP_STATIC_RUNTIME "Link hamcp with static libstdc++/libgcc, spdlog, fmt and Boost libraries" ON)

set(hamcp_static_runtime OFF)
if(HAMCP_STATIC_RUNTIME AND NOT HAMCP_SANITIZE AND NOT HAMCP_TSAN AND NOT HAMCP_FUZZ
   AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  set(hamcp_static_runtime ON)
  # Before find_package(Boost): BoostConfig then picks the .a files (also for the test binaries,
  # which is harmless and keeps one set of imported targets).
  set(Boost_USE_STATIC_LIBS ON)
endif()

# After find_package(spdlog) and find_package(fmt): the targets every hamcp library links for
# logging and formatting, in HAMCP_LOG_LIBS.
function(hamcp_log_libraries)
  if(NOT hamcp_static_runtime)
    set(HAMCP_LOG_LIBS spdlog::spdlog fmt::fmt PARENT_SCOPE)
    return()
  endif()
  # The same usage requirements as Debian's imported targets, copied from them, so every object's
  # compile line stays byte for byte what it was.
  foreach(pair "hamcp_fmt;fmt::fmt;fmt_lib" "hamcp_spdlog;spdlog::spdlog;spdlog_lib")
    list(GET pair 0 name)
    list(GET pair 1 imported)
    list(GET pair 2 src)
    add_library(${name} STATIC ${CMAKE_SOURCE_DIR}/cmake/static_runtime/${src}.cpp)
    foreach(prop INTERFACE_COMPILE_DEFINITIONS INTERFACE_INCLUDE_DIRECTORIES INTERFACE_COMPILE_OPTIONS)
      get_target_property(value ${imported} ${prop})
      if(value)
        set_property(TARGET ${name} PROPERTY ${prop} "${value}")
        if(prop STREQUAL "INTERFACE_COMPILE_DEFINITIONS")
          target_compile_definitions(${name} PRIVATE ${value})
        endif()
      endif()
    endforeach()
    hamcp_text_sections(${name})
  endforeach()
  target_link_libraries(hamcp_spdlog PUBLIC hamcp_fmt)
  set(HAMCP_LOG_LIBS hamcp_spdlog hamcp_fmt PARENT_SCOPE)
endfunction()

# The executable TARGET without the shared C++ runtime.
function(hamcp_static_runtime_link target)
  if(hamcp_static_runtime)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc)
  endif()
endfunction()
