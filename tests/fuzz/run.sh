#!/usr/bin/env bash
# Builds the libFuzzer targets (clang-14, -fsanitize=fuzzer,address,undefined,float-cast-overflow,
# own build dir) and runs each for a bounded time from its committed corpus (tests/fuzz/corpus/
# <target>/: hand-written seeds plus the minimised corpus of the last campaign, bench/fuzz/
# CAMPAIGN.md, so every run first replays all of it). New interesting inputs go to a scratch
# corpus under the build dir, never into the repository.
#   fuzz_jsonrpc  one JSON-RPC message into an MCP session
#   fuzz_http     raw bytes into the HTTP server (Streamable HTTP, legacy SSE, sessions), in memory
#   fuzz_ha_ws    a hostile HA's WebSocket frames into the real WsClient (tests/fuzz/fake_ha.hpp)
#   fuzz_ha_rest  a hostile HA's raw HTTP answers into the real RestClient and error classification
#   fuzz_mirror   a hostile HA's states/registries into the mirror and search index (1 in 8 by a full sync,
#                 the others as changes on the live connection)
#
#   tests/fuzz/run.sh                     every target, FUZZ_SECONDS (default 45) each (5 targets: ~4 min)
#   FUZZ_SECONDS=300 tests/fuzz/run.sh    longer local run
#   FUZZ_TARGETS=fuzz_jsonrpc tests/fuzz/run.sh
# A crash leaves crash-*/leak-*/timeout-* files in the build dir's fuzz-artifacts/ (reproduce with
# `<build>/tests/fuzz/<target> <file>`).
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
build="${HAMCP_FUZZ_BUILD_DIR:-$root/build-ci-fuzz}"
seconds="${FUZZ_SECONDS:-45}"

export CCACHE_BASEDIR="$root"
# -fno-sanitize=function: clang 14 cannot emit UBSan's function-type check together with
# libFuzzer's coverage in coroutine code ("Cannot represent a difference across sections");
# every other UBSan check stays on.
# float-cast-overflow is part of clang's "undefined" group; named so it stays on if the group changes.
FUZZ_FLAGS="-fsanitize=fuzzer-no-link,address,undefined,float-cast-overflow -fno-sanitize=function -fno-sanitize-recover=undefined,float-cast-overflow -fno-omit-frame-pointer"
set -e
# Self-test: the flags above must report a float->int overflow ((long long)1e300), else a
# UBSan-clean fuzz run proves nothing about such casts.
mkdir -p "$build"
# shellcheck disable=SC2086
clang++-14 ${FUZZ_FLAGS/fuzzer-no-link,/} "$root/tests/sanitizer/float_cast_overflow.cpp" -o "$build/float_cast_selftest"
selftest_out="$("$build/float_cast_selftest" 1e300 2>&1 || true)"  # it must abort: ignore its status
if grep -q "outside the range of representable values" <<<"$selftest_out"; then
  echo "fuzz: sanitizer self-test: (long long)1e300 is reported"
else
  echo "fuzz: sanitizer self-test FAILED: (long long)1e300 went unreported with FUZZ_FLAGS" >&2
  exit 1
fi
if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-14 -DHAMCP_FUZZ=ON -DHAMCP_BUILD_BENCH=OFF \
    -DCMAKE_CXX_FLAGS="$FUZZ_FLAGS" \
    >/dev/null
fi
targets="${FUZZ_TARGETS:-}"
if [ -z "$targets" ]; then
  targets="fuzz_jsonrpc fuzz_http fuzz_ha_ws fuzz_ha_rest fuzz_mirror"
fi
# shellcheck disable=SC2086
ninja -C "$build" -j"${HAMCP_JOBS:-2}" $targets
set +e

# Targets that keep a server (or an HA client) alive across inputs hold state by design (sessions,
# subscriptions, pending timers): libFuzzer's per-input leak check would re-run nearly every input
# and scan the heap, for nothing. LSan still checks the whole process when it exits.
#
# Every target: libFuzzer's entropic schedule keeps every feature it sees as "rare" until one of
# them has been hit more than entropic_feature_frequency_threshold times (default 255), and for
# each feature of each execution it searches that list linearly. Our targets touch 10k-30k features
# per input (Beast, Asio, Boost.JSON under ASan), so while the list is long (the whole seed replay
# and long stretches after it) that search was 70 % of the CPU (perf, bench/fuzz/CAMPAIGN.md).
# 16 trims the list after the first few hits; the schedule itself stays on.
common_flags="-entropic_feature_frequency_threshold=16"
target_flags() {
  echo "$common_flags"
  case "$1" in
    fuzz_http|fuzz_ha_ws|fuzz_ha_rest|fuzz_mirror) echo "-detect_leaks=0" ;;
  esac
}

passed=0; failed=0
mkdir -p "$build/fuzz-artifacts"
for t in $targets; do
  seeds="$here/corpus/$t"
  scratch="$build/fuzz-corpus/$t"
  mkdir -p "$scratch"
  [ -d "$seeds" ] && [ -n "$(ls -A "$seeds")" ] || { echo "fuzz: $t has no seed corpus in $seeds" >&2; failed=$((failed + 1)); continue; }
  echo "fuzz: $t for ${seconds}s ($(ls "$seeds" | wc -l) seeds)"
  log="$build/fuzz-artifacts/$t.log"
  ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=1}" \
  UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
    "$build/tests/fuzz/$t" $(target_flags "$t") -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$build/fuzz-artifacts/$t-" "$scratch" "$seeds" >"$log" 2>&1
  rc=$?
  execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
  cov="$(grep -oE 'cov: [0-9]+' "$log" | tail -1)"
  if [ $rc -eq 0 ]; then
    echo "fuzz: $t pass: ${execs:-?} executions, ${cov:-cov: ?}"
    passed=$((passed + 1))
  else
    echo "fuzz: $t FAILED (exit $rc) after ${execs:-?} executions:" >&2
    grep -E 'ERROR|SUMMARY|runtime error|oracle|==[0-9]+==|#[0-9]+ 0x' "$log" | head -60 >&2
    ls "$build/fuzz-artifacts/$t-"* 2>/dev/null >&2
    failed=$((failed + 1))
  fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
