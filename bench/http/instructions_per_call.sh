#!/bin/bash
# User-space instructions per ha_get_state call (issue 9, item 6), counted by
# callgrind: steady on a shared machine, where CPU time is not, and available
# where perf has no hardware counters (this VM). hamcp --http --demo runs
# under valgrind with instrumentation off; after a 3 s warm-up of wrk (1 thread,
# 64 connections, one session, mcp_call.lua) it is switched on for a 10 s run,
# dumped, and the total is divided by the requests wrk completed. Under
# valgrind the rate is ~200 calls/s, so idle timers and the simulated home's
# thread add a little per call: compare builds with each other only.
# 127.0.0.1 only.
#
#   bench/http/instructions_per_call.sh HAMCP [PORT=18996]
set -eu
BIN=$1 PORT=${2:-18996}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d /tmp/hamcp-ir.XXXXXX); chmod 700 "$DIR"
H1="Content-Type: application/json"; H2="Accept: application/json, text/event-stream"
valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$DIR/cg.out" "$BIN" --http --demo --port "$PORT" \
  --data-dir "$DIR" --max-calls-per-session 128 2>"$DIR/log" &
PID=$!
trap 'kill $PID 2>/dev/null || true; rm -rf "$DIR"' EXIT
for _ in $(seq 300); do curl -s "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 0.2; done
sleep 2
SID=$(curl -s -D - -o /dev/null -H "$H1" -H "$H2" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
  "http://127.0.0.1:$PORT/mcp" | awk 'tolower($1)=="mcp-session-id:"{print $2}' | tr -d '\r')
export MCP_SESSION=$SID MCP_BODY_TOOL=ha_get_state MCP_BODY_ARGS='{"entity_id":"light.kitchen_ceiling_light"}'
wrk -t1 -c64 -d3s -s "$HERE/mcp_call.lua" "http://127.0.0.1:$PORT/mcp" >/dev/null
callgrind_control -i on "$PID" >/dev/null 2>&1
N=$(wrk -t1 -c64 -d10s --timeout 10s -s "$HERE/mcp_call.lua" "http://127.0.0.1:$PORT/mcp" | awk '/requests in/{print $1}')
callgrind_control -i off "$PID" >/dev/null 2>&1
callgrind_control -d "$PID" >/dev/null 2>&1
sleep 1
IR=$(callgrind_annotate "$DIR/cg.out.1" 2>/dev/null | awk '/PROGRAM TOTALS/{gsub(",","",$1); print $1}')
echo "$N requests, $IR instructions, $(awk -v i="$IR" -v n="$N" 'BEGIN{printf "%.0f", i/n}') per request"
# Keep the profile for callgrind_annotate --inclusive=yes when asked.
[ -n "${KEEP:-}" ] && cp "$DIR/cg.out.1" "$KEEP"
exit 0
