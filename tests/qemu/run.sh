#!/usr/bin/env bash
# Runs the Release unit test binaries (unit_*) and a hamcp smoke check under
# `qemu-x86_64 -cpu Conroe`: a Core 2 CPU (SSE2..SSSE3, no SSE4, POPCNT, AVX). Any instruction
# the CPU lacks raises SIGILL, so this proves the code paths the tests execute run on old x86-64.
#
#   tests/qemu/run.sh [BUILD_DIR]        (default: $HAMCP_BUILD_DIR or build-ci)
#
# tests/qemu/excluded.txt may list gtest filters (one per line, '#' comments) of tests that are
# unreliable under emulation (timing), each with its reason; they are reported as skipped,
# never hidden.
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${1:-${HAMCP_BUILD_DIR:-$root/build-ci}}"
cpu="${QEMU_CPU_MODEL:-Conroe}"
command -v qemu-x86_64 >/dev/null || { echo "qemu-x86_64 missing (apt-get install qemu-user)" >&2; exit 1; }

excluded=""
if [ -f "$root/tests/qemu/excluded.txt" ]; then
  excluded="$(grep -v '^\s*#' "$root/tests/qemu/excluded.txt" | awk 'NF{print $1}' | paste -sd: -)"
fi

passed=0; failed=0; skipped=0; bad_bins=()
# A CPU qemu models without SSE4.1 must reject an SSE4.1 instruction: proves the emulator is strict.
probe="$(mktemp -d)"; trap 'rm -rf "$probe"' EXIT
cat > "$probe/p.c" <<'SRC'
int main(void) { __asm__ volatile("pminsd %%xmm1, %%xmm0" ::: "xmm0"); return 0; }
SRC
gcc -O0 "$probe/p.c" -o "$probe/p" || { echo "qemu: cannot build the SSE4.1 probe" >&2; exit 1; }
"$probe/p" || { echo "qemu: the SSE4.1 probe does not run natively" >&2; exit 1; }
# (the inner `exit $?` makes the subshell reap qemu, so its "Illegal instruction" note goes to /dev/null)
if ( qemu-x86_64 -cpu "$cpu" "$probe/p"; exit $? ) 2>/dev/null; then
  echo "qemu: -cpu $cpu executed an SSE4.1 instruction: the emulator does not enforce the CPU model" >&2
  exit 1
fi
echo "qemu: -cpu $cpu rejects SSE4.1 (SIGILL) as it should"

shopt -s nullglob
bins=("$build"/unit_*)
if [ ${#bins[@]} -eq 0 ]; then
  echo "qemu: no unit_* binaries in $build" >&2
fi
for bin in "${bins[@]}"; do
  [ -x "$bin" ] && [ -f "$bin" ] || continue
  name="$(basename "$bin")"
  filter="*"
  [ -n "$excluded" ] && filter="*-$excluded"
  out="$(mktemp)"
  start=$(date +%s)
  ( cd "$build" && timeout 900 qemu-x86_64 -cpu "$cpu" "$bin" --gtest_brief=1 --gtest_filter="$filter" ) >"$out" 2>&1
  rc=$?
  p=$(sed -n 's/^\[  PASSED  \] \([0-9]*\) tests\?.*/\1/p' "$out" | tail -1)
  f=$(sed -n 's/^\[  FAILED  \] \([0-9]*\) tests\?, listed below.*/\1/p' "$out" | tail -1)
  s=$(sed -n 's/^\[  SKIPPED \] \([0-9]*\) tests\?, listed below.*/\1/p' "$out" | tail -1)
  p=${p:-0}; f=${f:-0}; s=${s:-0}
  if [ $rc -ne 0 ] && [ "$f" -eq 0 ]; then f=1; fi   # crashed (e.g. SIGILL = 132) before gtest summarised
  passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
  echo "qemu: $name: rc=$rc passed=$p failed=$f skipped=$s ($(( $(date +%s) - start )) s)"
  if [ $rc -ne 0 ]; then
    bad_bins+=("$name")
    tail -n 60 "$out"
    [ $rc -eq 132 ] && echo "qemu: $name died of SIGILL: an instruction newer than the $cpu CPU" >&2
  fi
  rm -f "$out"
done
if [ -n "$excluded" ]; then
  echo "qemu: excluded under emulation (see tests/qemu/excluded.txt): $excluded"
fi

# The shipped binary itself must start on the old CPU.
if [ -x "$build/hamcp" ]; then
  if out="$(qemu-x86_64 -cpu "$cpu" "$build/hamcp" --version 2>&1)"; then
    echo "qemu: hamcp --version: $out"; passed=$((passed + 1))
  else
    echo "qemu: hamcp --version failed: $out" >&2; failed=$((failed + 1)); bad_bins+=(hamcp)
  fi
  # One MCP exchange over stdio against the embedded simulated home: initialize, then ping.
  init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"qemu-smoke","version":"1"}}}'
  ping='{"jsonrpc":"2.0","id":2,"method":"ping"}'
  reply="$( { printf '%s\n%s\n' "$init" '{"jsonrpc":"2.0","method":"notifications/initialized"}'; sleep 2; printf '%s\n' "$ping"; sleep 3; } \
           | timeout 60 qemu-x86_64 -cpu "$cpu" "$build/hamcp" --demo 2>"$probe/stderr")"
  if grep -q '"id":1,"result":{"protocolVersion"' <<<"$reply" && grep -q '"id":2,"result":{}' <<<"$reply"; then
    echo "qemu: hamcp --demo answered initialize + ping over stdio"; passed=$((passed + 1))
  elif grep -q 'not implemented yet' "$probe/stderr"; then
    echo "qemu: hamcp stdio not implemented yet: stdio smoke skipped"; skipped=$((skipped + 1))
  else
    echo "qemu: hamcp --demo over stdio did not answer initialize + ping. stdout: ${reply:0:400}" >&2
    tail -n 20 "$probe/stderr" >&2
    failed=$((failed + 1)); bad_bins+=("hamcp(stdio)")
  fi
fi

[ ${#bad_bins[@]} -gt 0 ] && echo "qemu: failing: ${bad_bins[*]}"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" -eq 0 ]
