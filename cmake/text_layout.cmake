# The hamcp binary's code laid out so that what a running server executes sits together (issue 9:
# idle <= 10 MB). The kernel maps file pages in runs (fault-around, large folios), so functions
# touched at start-up and during a sync that are scattered over the whole .text keep most of it
# resident; gathered, they cost a few MB. bench/RESULTS-ha.md ("step 8") has the figures.
#
# - Every object of the hamcp_* libraries and of hamcp's main is compiled with one section per
#   function and per datum (-ffunction-sections -fdata-sections; PRIVATE, so the unit tests' own
#   objects keep their flags and their ccache entries).
# - hamcp is linked by gold (binutils' ld.gold, Debian 12 and its aarch64 cross toolchain) with
#   --gc-sections and --section-ordering-file=cmake/hamcp-text.order: the sections a profile saw
#   executed, start-up first, then the same functions' exception and jump tables
#   (.gcc_except_table.NAME, .rodata.NAME; bench/ha/text_order.sh writes the file). Sections the
#   file does not name keep the compiler's order; names that no longer exist are ignored by gold,
#   so a stale file only lays the code out less well. Without the file, or without gold, hamcp
#   links as before.
# - hamcp exports no dynamic symbol of its own namespaces (cmake/hamcp-exports.ver: the GNU-unique
#   statics of Beast/Asio templates were ~1,240 exported names, 0.7 MB of .dynstr read at start-up).
# - Not for the sanitizer and fuzz builds (their own build dirs and caches stay as they are) nor Debug.
option(HAMCP_TEXT_LAYOUT "Per-function sections, gc-sections and a profile-ordered .text for hamcp" ON)
# Libraries left whole (a build that cannot afford recompiling them, e.g. -DHAMCP_TEXT_SECTIONS_SKIP=hamcp_tools).
set(HAMCP_TEXT_SECTIONS_SKIP "" CACHE STRING
    "Libraries compiled without per-function sections (their code stays whole, before the ordered code)")
set(HAMCP_TEXT_ORDER_FILE "${CMAKE_SOURCE_DIR}/cmake/hamcp-text.order" CACHE FILEPATH
    "gold --section-ordering-file for hamcp (bench/ha/text_order.sh writes it)")

set(hamcp_text_layout OFF)
if(HAMCP_TEXT_LAYOUT AND NOT HAMCP_SANITIZE AND NOT HAMCP_TSAN AND NOT HAMCP_FUZZ
   AND NOT CMAKE_BUILD_TYPE STREQUAL "Debug"
   AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang")
  set(hamcp_text_layout ON)
endif()

if(hamcp_text_layout)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=gold" HAMCP_HAVE_GOLD)
endif()

# Compile TARGET's own sources one section per function/datum.
function(hamcp_text_sections target)
  if(hamcp_text_layout AND NOT target IN_LIST HAMCP_TEXT_SECTIONS_SKIP)
    target_compile_options(${target} PRIVATE -ffunction-sections -fdata-sections)
  endif()
endfunction()

# Link the executable TARGET with gold, dropping unreferenced sections and ordering .text by the
# profile; also writes TARGET.map (input section -> address) for bench/ha/text_order.sh's check.
# --rosegment: read-only data (.rodata, .eh_frame) in a non-executable segment of its own, as
# bfd's default -z separate-code keeps it (gold would otherwise map it executable with the code).
function(hamcp_text_link target)
  if(NOT hamcp_text_layout OR NOT HAMCP_HAVE_GOLD)
    return()
  endif()
  target_link_options(${target} PRIVATE -fuse-ld=gold LINKER:--gc-sections LINKER:--rosegment
                      LINKER:-Map=${CMAKE_CURRENT_BINARY_DIR}/${target}.map
                      LINKER:--version-script=${CMAKE_SOURCE_DIR}/cmake/hamcp-exports.ver)
  set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${CMAKE_SOURCE_DIR}/cmake/hamcp-exports.ver")
  if(EXISTS "${HAMCP_TEXT_ORDER_FILE}")
    target_link_options(${target} PRIVATE LINKER:--section-ordering-file=${HAMCP_TEXT_ORDER_FILE})
    set_property(TARGET ${target} APPEND PROPERTY LINK_DEPENDS "${HAMCP_TEXT_ORDER_FILE}")
  endif()
endfunction()
