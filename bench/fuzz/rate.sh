#!/usr/bin/env bash
# Executions per CPU-second of one fuzz target binary, from the committed corpus, as run.sh runs it
# (same flags), at the lowest priority: the fair speed measure on a shared machine (wall-clock
# rates swing with the other users' load). To compare two harness versions, start both at once
# (same load) on scratch corpora:
#   bench/fuzz/rate.sh OLD_BIN fuzz_ha_ws 60 & bench/fuzz/rate.sh NEW_BIN fuzz_ha_ws 60; wait
# NICE=2 runs it at that priority (default 19): on a machine whose other users' builds run at
# nice 10, a nice-19 fuzzer gets next to no CPU and never gets past the corpus replay.
set -uo pipefail
bin="$1" target="$2" seconds="${3:-60}"
root="$(cd "$(dirname "$0")/../.." && pwd)"
scratch="$(mktemp -d)"
log="$scratch/log"
flags="-entropic_feature_frequency_threshold=16"
case "$target" in fuzz_http|fuzz_ha_ws|fuzz_ha_rest|fuzz_mirror) flags="$flags -detect_leaks=0" ;; esac
# shellcheck disable=SC2086
ASAN_OPTIONS="detect_leaks=1:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
  nice -n "${NICE:-19}" /usr/bin/time -o "$scratch/cpu" -f "%U %S" "$bin" $flags -max_total_time="$seconds" -timeout=10 \
  -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 -artifact_prefix="$scratch/" "$scratch" \
  "$root/tests/fuzz/corpus/$target" >"$log" 2>&1
rc=$?
execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
cpu="$(tail -1 "$scratch/cpu" | awk '{printf "%.1f", $1 + $2}')"
cov="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)"
echo "$bin: exit $rc, ${execs:-?} executions, CPU ${cpu} s, $(awk -v e="${execs:-0}" -v c="$cpu" 'BEGIN{printf "%.0f", e / (c > 0 ? c : 1)}') exec/CPU-s, $cov (log $log)"
