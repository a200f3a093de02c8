#!/usr/bin/env bash
# Lifecycle stress (issue 8): sessions ending in every way while hundreds of tool calls wait on a
# misbehaving simulated Home Assistant. Run by the asan lane (ASan+UBSan build) and the tsan lane
# (ThreadSanitizer build); by hand:
#
#   tests/stress/run.sh <hamcp binary under test> [<hamcp binary for the simulator>]
#   STRESS_SECONDS=300 STRESS_SEED=7 tests/stress/run.sh build-asan/hamcp build/hamcp
#
# The simulator runs from the second binary (default: the first) so that a sanitizer report names
# hamcp's server code, not the test's simulated HA. Loopback only; bounded by STRESS_SECONDS.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin="${1:?usage: tests/stress/run.sh <hamcp binary> [<sim binary>]}"
sim_bin="${2:-$bin}"
export NO_PROXY="127.0.0.1,localhost,::1" no_proxy="127.0.0.1,localhost,::1"
# A report must fail the run, and be readable: symbolized, no abort (the driver reads stderr).
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=0:abort_on_error=0:halt_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=0:second_deadlock_stack=1:history_size=4}"
HAMCP_STRESS_BIN="$bin" HAMCP_STRESS_SIM_BIN="$sim_bin" exec python3 "$here/lifecycle.py" \
  --seconds "${STRESS_SECONDS:-60}" --seed "${STRESS_SEED:-1}" --workers "${STRESS_WORKERS:-24}"
