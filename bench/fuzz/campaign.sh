#!/usr/bin/env bash
# Off-CI fuzzing campaign: runs each target once, alone, single process, at the lowest priority,
# until it has done RUNS executions or SECONDS have passed; then merges what it found into the
# committed corpus (tests/fuzz/corpus/<target>/, -merge=1 keeps only inputs that add coverage, so
# the named seeds stay and CI replays the rest). Results go to bench/fuzz/CAMPAIGN.md by hand.
#
#   bench/fuzz/campaign.sh                             every target, 10M runs or 15 min each
#   RUNS=10000000 SECONDS_PER_TARGET=900 bench/fuzz/campaign.sh fuzz_http fuzz_mirror
#   NICE=0 bench/fuzz/campaign.sh ...                  at normal priority (default: nice 19)
# Needs the fuzz build of tests/fuzz/run.sh (HAMCP_FUZZ_BUILD_DIR, default build-ci-fuzz).
set -uo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
build="${HAMCP_FUZZ_BUILD_DIR:-$root/build-ci-fuzz}"
runs="${RUNS:-10000000}"
seconds="${SECONDS_PER_TARGET:-900}"
out="$build/campaign"
mkdir -p "$out"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(fuzz_jsonrpc fuzz_http fuzz_ha_ws fuzz_ha_rest fuzz_mirror)
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
for t in "${targets[@]}"; do
  bin="$build/tests/fuzz/$t"
  seeds="$root/tests/fuzz/corpus/$t"
  work="$out/$t-corpus"
  mkdir -p "$work"
  echo "campaign: $t: start $(date -u +%FT%TZ), load $(cut -d' ' -f1-3 /proc/loadavg)"
  start=$(date +%s)
  extra="-entropic_feature_frequency_threshold=16"  # as tests/fuzz/run.sh (why: there)
  case "$t" in fuzz_http|fuzz_ha_ws|fuzz_ha_rest|fuzz_mirror) extra="$extra -detect_leaks=0" ;; esac
  # shellcheck disable=SC2086
  nice -n "${NICE:-19}" /usr/bin/time -o "$out/$t.cpu" -f "%U %S" "$bin" $extra -runs="$runs" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$out/$t-" "$work" "$seeds" >"$out/$t.log" 2>&1
  rc=$?
  end=$(date +%s)
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log" | tail -1)"
  cov="$(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$t.log" | tail -1)"
  cpu="$(tail -1 "$out/$t.cpu" 2>/dev/null | awk '{printf "%.0f", $1 + $2}')"
  echo "campaign: $t: exit $rc, ${execs:-?} executions in $((end - start)) s ($(( ${execs:-0} / (end - start + 1) ))/s)," \
       "CPU ${cpu:-?} s ($(( ${execs:-0} / (${cpu:-0} + 1) ))/CPU-s), $cov, load $(cut -d' ' -f1-3 /proc/loadavg)"
  [ $rc -eq 0 ] || { grep -E 'ERROR|SUMMARY|runtime error|oracle' "$out/$t.log" | head -20; continue; }
  before="$(ls "$seeds" | wc -l)"
  nice -n 19 "$bin" -merge=1 -max_len=65536 -timeout=10 "$seeds" "$work" >"$out/$t-merge.log" 2>&1
  echo "campaign: $t: corpus $before -> $(ls "$seeds" | wc -l) files, $(du -sk "$seeds" | cut -f1) KB" \
       "($(grep -oE 'cov: [0-9]+ ft: [0-9]+' "$out/$t-merge.log" | tail -1) after merge)"
done
