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

"$root/tests/qemu/emulated_run.sh" qemu "$build" "$root/tests/qemu/excluded.txt" qemu-x86_64 -cpu "$cpu"

