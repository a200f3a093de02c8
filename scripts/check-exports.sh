#!/usr/bin/env bash
# Checks the dynamic symbols of a hamcp executable (cmake/hamcp-exports.ver):
#  1. it exports nothing of its own namespaces (Asio, Beast, hamcp, CLI11, nlohmann, Boost.Regex
#     internals): these are GCC's GNU-unique statics, which no library we link can share;
#  2. every C++ symbol it defines that a library it loads also defines or references is still
#     exported, so that library binds to the same object as hamcp (e.g. Boost.JSON's static empty
#     object, Boost.System's categories): hiding one of those would give the program two copies.
#   scripts/check-exports.sh BIN
set -euo pipefail
bin=${1:?usage: check-exports.sh BIN}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
dyn_names() { nm -D "$@" 2>/dev/null | awk '{print $NF}' | sed 's/@.*//' | sort -u; }
nm -D --defined-only "$bin" | awk '{print $NF}' | sed 's/@.*//' | sort -u >"$tmp/exported"
ours='5boost4asio|5boost5beast|13re_detail_500|5hamcp|3CLI|8nlohmann'
if grep -E "$ours" "$tmp/exported" >"$tmp/ours"; then
  echo "check-exports: $bin exports $(wc -l <"$tmp/ours") symbols of its own, e.g.:" >&2
  head -3 "$tmp/ours" >&2
  exit 1
fi
# The libraries the loader maps for it (ldd's resolved paths) and the names they define or import.
libs=$(ldd "$bin" | awk '$2 == "=>" && $3 ~ /^\// {print $3}')
# shellcheck disable=SC2086
dyn_names $libs >"$tmp/libs"
# C++ names with external linkage that hamcp defines (its full symbol table), exported or not.
nm --defined-only "$bin" | awk '$3 ~ /^_Z/ && $3 !~ /^_ZL/ && $3 !~ /_GLOBAL__N_/ {print $3}' | sort -u >"$tmp/defined"
comm -12 "$tmp/defined" "$tmp/libs" | comm -23 - "$tmp/exported" >"$tmp/split"
if [ -s "$tmp/split" ]; then
  echo "check-exports: $bin hides $(wc -l <"$tmp/split") symbols that a library it loads also has, e.g.:" >&2
  head -3 "$tmp/split" | c++filt >&2
  exit 1
fi
echo "check-exports: $(wc -l <"$tmp/exported") exported symbols, none of hamcp's own; $(comm -12 "$tmp/defined" "$tmp/libs" | wc -l) shared with its libraries, all exported"
