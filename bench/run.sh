#!/usr/bin/env bash
# Benchmarks hamcp (not a CI test): stdio round trips, HTTP throughput/latency at 1/16/64
# concurrent clients, and memory idle and with 1,000 sessions. Loopback only, every loop bounded.
# Prints a Markdown report on stdout (bench/RESULTS.md is written from it by hand, with context).
#
#   bench/run.sh                         hamcp --http --demo, ping + the fixture's trivial tool
#   BENCH_REPEATS=5 BENCH_SECONDS=10 bench/run.sh
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
build="${HAMCP_BUILD_DIR:-$root/build-ci}"
repeats="${BENCH_REPEATS:-3}"
seconds="${BENCH_SECONDS:-5}"
requests="${BENCH_REQUESTS:-200000}"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >/dev/null
fi
ninja -C "$build" -j"${HAMCP_JOBS:-2}" hamcp mcp_fixture_server bench_http_load bench_stdio_roundtrip >/dev/null
hamcp="$build/hamcp"
fixture="$build/tests/conformance/mcp_fixture_server"
load="$build/bench/bench_http_load"
work="$(mktemp -d)"
# start() runs in a subshell (process substitution): it records pids in a file for the cleanup.
: >"$work/pids"
trap 'while read -r p; do kill "$p" 2>/dev/null || true; done <"$work/pids"; sleep 1; rm -rf "$work"' EXIT

start() {  # start LOG CMD... -> echoes "PID PORT"
  local log="$1"; shift
  "$@" >"$log" 2>&1 &
  local pid=$! port=""
  echo "$pid" >>"$work/pids"
  for _ in $(seq 1 100); do
    port="$(grep -aoE 'http://127\.0\.0\.1:[0-9]+/mcp' "$log" | head -n1 | sed -E 's%.*:([0-9]+)/mcp%\1%' || true)"
    [ -n "$port" ] && [ "$port" != 0 ] && break
    sleep 0.1
  done
  [ -n "$port" ] || { echo "could not start: $*" >&2; cat "$log" >&2; exit 1; }
  echo "$pid $port"
}
rss_kb() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

# median_of FIELD JSON-LINES...: median of a numeric field across runs
median_of() {
  python3 -c '
import json, statistics, sys
field = sys.argv[1]
vals = [json.loads(l)[field] for l in sys.stdin if l.strip()]
print(f"{statistics.median(vals):.0f}")' "$1"
}

echo "# hamcp benchmark run"
echo
echo "- date: $(date -u +%Y-%m-%dT%H:%MZ); commit $(git -C "$root" rev-parse --short HEAD)"
echo "- machine: $(nproc) cores, $(awk -F': ' '/model name/ {print $2; exit}' /proc/cpuinfo), $(free -g | awk '/Mem:/ {print $2}') GiB, $(uname -sr)"
echo "- build: Release (-O3 -DNDEBUG, baseline x86-64), $repeats repeats per point, medians shown"
echo

echo "## stdio (client spawns the server; initialize -> tools/list)"
echo
echo '```'
echo "hamcp --demo: $("$build/bench/bench_stdio_roundtrip" --runs 20 --warm 1000 -- "$hamcp" --demo)"
echo "fixture --stdio: $("$build/bench/bench_stdio_roundtrip" --runs 20 --warm 1000 -- "$fixture" --stdio --e2e)"
echo '```'
echo

http_targets=()
read -r hpid hport < <(start "$work/hamcp.log" "$hamcp" --http --demo --host 127.0.0.1 --port 0 --data-dir "$work/hamcp-data")
http_targets+=("hamcp --http --demo|$hpid|$hport|ping")
read -r fpid fport < <(start "$work/fixture.log" "$fixture" --host 127.0.0.1 --port 0 --e2e)
http_targets+=("fixture server|$fpid|$fport|ping")
http_targets+=("fixture server|$fpid|$fport|tool:test_simple_text")
[ -n "${BENCH_HAMCP_TOOL:-}" ] && http_targets+=("hamcp --http --demo|$hpid|$hport|tool:$BENCH_HAMCP_TOOL")

echo "## Streamable HTTP, closed loop, keep-alive, one session per client (${seconds} s or $requests requests per run)"
echo
echo "| server | request | clients | req/s | p50 µs | p99 µs | errors |"
echo "|---|---|---:|---:|---:|---:|---:|"
for t in "${http_targets[@]}"; do
  IFS='|' read -r name pid port what <<<"$t"
  for c in 1 16 64; do
    lines=""
    for _ in $(seq 1 "$repeats"); do
      if [[ "$what" == tool:* ]]; then args=(--tool "${what#tool:}"); else args=(--method "$what"); fi
      lines+="$("$load" --url "http://127.0.0.1:$port/mcp" --clients "$c" --requests "$requests" --seconds "$seconds" "${args[@]}" || true)"$'\n'
    done
    echo "| $name | ${what/tool:/tools\/call } | $c | $(median_of rps <<<"$lines") | $(median_of p50_us <<<"$lines") | $(median_of p99_us <<<"$lines") | $(python3 -c 'import json,sys; print(sum(json.loads(l)["errors"] for l in sys.stdin if l.strip()))' <<<"$lines") |"
  done
done
echo

echo "## Memory (VmRSS)"
echo
read -r mpid mport < <(start "$work/hamcp-mem.log" "$hamcp" --http --demo --host 127.0.0.1 --port 0 --data-dir "$work/hamcp-mem")
sleep 2
idle=$(rss_kb "$mpid")
"$load" --url "http://127.0.0.1:$mport/mcp" --sessions-only 1000 >/dev/null
sleep 1
with=$(rss_kb "$mpid")
echo "| server | idle | with 1,000 idle sessions | per session |"
echo "|---|---:|---:|---:|"
echo "| hamcp --http --demo | $((idle / 1024)) MiB | $((with / 1024)) MiB | $(( (with - idle) / 1000 )) KiB |"
