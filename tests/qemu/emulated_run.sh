#!/usr/bin/env bash
# Runs a build's unit test binaries (unit_*) and a hamcp smoke check under an emulator: shared by
# the qemu lane (x86-64 as a 2006 Core 2 CPU) and the arm64 lane (the aarch64 cross build).
#
#   tests/qemu/emulated_run.sh LABEL BUILD_DIR EXCLUDED_FILE EMULATOR [EMULATOR ARGS...]
#
# EXCLUDED_FILE may list gtest filters (one per line, '#' comments) of tests that are unreliable
# under emulation (timing), each with its reason; they are reported as excluded, never hidden.
# Prints "N passed, N failed, N skipped"; exit 1 on any failure.
set -uo pipefail
label="$1" build="$(realpath "$2")" excluded_file="$3"
shift 3
emu=("$@")

excluded=""
if [ -f "$excluded_file" ]; then
  excluded="$(grep -v '^\s*#' "$excluded_file" | awk 'NF{print $1}' | paste -sd: -)"
fi
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT

passed=0; failed=0; skipped=0; bad_bins=()
shopt -s nullglob
bins=("$build"/unit_*)
[ ${#bins[@]} -eq 0 ] && { echo "$label: no unit_* binaries in $build" >&2; failed=1; }
for bin in "${bins[@]}"; do
  [ -x "$bin" ] && [ -f "$bin" ] || continue
  name="$(basename "$bin")"
  filter="*"
  [ -n "$excluded" ] && filter="*-$excluded"
  out="$tmp/out"
  start=$(date +%s)
  ( cd "$build" && timeout 900 "${emu[@]}" "$bin" --gtest_brief=1 --gtest_filter="$filter" ) >"$out" 2>&1
  rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?.*/\1/p' "$out" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$out" | tail -1)
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?, listed below.*/\1/p' "$out" | tail -1)
  p=${p:-0}; f=${f:-0}; s=${s:-0}
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed (e.g. SIGILL = 132) before gtest summarised
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  echo "$label: $name: rc=$rc passed=$p failed=$f skipped=$s ($(( $(date +%s) - start )) s)"
  if [ $rc -ne 0 ]; then
    bad_bins+=("$name")
    tail -n 60 "$out"
    [ $rc -eq 132 ] && echo "$label: $name died of SIGILL: an instruction the emulated CPU lacks" >&2
  fi
done
[ -n "$excluded" ] && echo "$label: excluded under emulation (see $excluded_file): $excluded"

# The shipped binary itself must start on the emulated CPU.
if [ -x "$build/hamcp" ]; then
  if out="$("${emu[@]}" "$build/hamcp" --version 2>&1)"; then
    echo "$label: hamcp --version: $out"; passed=$((passed + 1))
  else
    echo "$label: hamcp --version failed: $out" >&2; failed=$((failed + 1)); bad_bins+=(hamcp)
  fi
  # MCP over stdio against the embedded simulated home: initialize, ping, and one tool call that
  # goes through the mirror and the search index (the demo home's kitchen light).
  init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"emulated-smoke","version":"1"}}}'
  ping='{"jsonrpc":"2.0","id":2,"method":"ping"}'
  call='{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"ha_search","arguments":{"query":"kitchen light","limit":3}}}'
  reply="$( { printf '%s\n%s\n' "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}'; sleep 3
              printf '%s\n%s\n' "$ping" "$call"; sleep 5; } \
           | timeout 90 "${emu[@]}" "$build/hamcp" --demo 2>"$tmp/stderr")"
  if grep -q '"id":1,"result":{"protocolVersion"' <<<"$reply" && grep -q '"id":2,"result":{}' <<<"$reply" &&
     grep -q '"id":3,"result":{.*light\.' <<<"$reply"; then
    echo "$label: hamcp --demo answered initialize, ping and ha_search over stdio"; passed=$((passed + 1))
  else
    echo "$label: hamcp --demo over stdio did not answer initialize + ping + ha_search. stdout: ${reply:0:600}" >&2
    tail -n 20 "$tmp/stderr" >&2
    failed=$((failed + 1)); bad_bins+=("hamcp(stdio)")
  fi
fi

[ ${#bad_bins[@]} -gt 0 ] && echo "$label: failing: ${bad_bins[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
