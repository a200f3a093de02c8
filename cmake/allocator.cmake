# hamcp's allocator: mimalloc (Debian's libmimalloc2.0) in place of glibc's malloc, for the hamcp
# executable and the benchmarks that stand for its process (issue 9: throughput). A tool call over
# HTTP makes ~95 allocations; glibc's per-thread cache holds 7 blocks of a size, so with 64 calls
# in flight most frees went to the arena under its lock (_int_free was the costliest function of
# a call). bench/http/THROUGHPUT.md (session 11) has the figures.
#
# - Linked as a shared library ahead of the C++ runtime: its malloc/free and operator new/delete
#   are the process's (the dynamic override mimalloc documents), also for the static libstdc++.
# - Its options are set in apply_allocator_settings() (src/common/allocator_settings.hpp), which
#   finds mimalloc through weak symbols: the same code runs with glibc where it is not linked.
# - Not for the sanitizer, TSan and fuzz builds (their runtimes replace malloc themselves), and
#   left out when the library is not installed (-DHAMCP_MIMALLOC=OFF forces glibc's malloc).
option(HAMCP_MIMALLOC "Link the hamcp executable with mimalloc" ON)

set(hamcp_mimalloc_library "")
if(HAMCP_MIMALLOC AND NOT HAMCP_SANITIZE AND NOT HAMCP_TSAN AND NOT HAMCP_FUZZ)
  find_library(HAMCP_MIMALLOC_LIBRARY NAMES mimalloc)
  if(HAMCP_MIMALLOC_LIBRARY)
    set(hamcp_mimalloc_library ${HAMCP_MIMALLOC_LIBRARY})
  else()
    message(STATUS "hamcp: mimalloc not found (libmimalloc-dev); glibc's malloc is used")
  endif()
endif()

# Links TARGET (an executable) with mimalloc when it is used; --no-as-needed because hamcp refers
# to mimalloc only weakly, and the override is the point of linking it.
function(hamcp_allocator_link target)
  if(hamcp_mimalloc_library)
    target_link_libraries(${target} PRIVATE -Wl,--push-state,--no-as-needed ${hamcp_mimalloc_library} -Wl,--pop-state)
  endif()
endfunction()
