#!/bin/sh
# HTTP ha_get_state throughput of hamcp against the bare Beast yardstick
# (issue 9): both measured in the same run with the same load generator (wrk,
# Debian's package), 64 connections, alternating, RUNS times each.
#
#   bench/http/throughput.sh HAMCP_BINARY BARE_BINARY [RUNS=3] [SECONDS=10]
#
# hamcp serves --http --demo (the embedded simulated home) on 127.0.0.1; one
# MCP session is opened with curl and shared by the 64 connections (per-session
# call cap raised to 128 so the cap is not what is measured); each request is
# one tools/call ha_get_state {"entity_id":"light.kitchen_ceiling_light"} with
# its own id. The yardstick answers every request with the very bytes of
# hamcp's answer (captured first). Prints one line per run and the medians.
set -eu
HAMCP=$1 BARE=$2 RUNS=${3:-3} SECS=${4:-10}
HERE=$(cd "$(dirname "$0")" && pwd)
PORT_MCP=${PORT_MCP:-18960} PORT_BARE=${PORT_BARE:-18961}
DIR=$(mktemp -d /tmp/hamcp-tp.XXXXXX); chmod 700 "$DIR"
cleanup() { kill "$MCP_PID" "$BARE_PID" 2>/dev/null || true; rm -rf "$DIR"; }
trap cleanup EXIT
"$HAMCP" --http --demo --port "$PORT_MCP" --data-dir "$DIR" --max-calls-per-session 128 2>"$DIR/hamcp.log" &
MCP_PID=$!
for _ in $(seq 50); do curl -s "http://127.0.0.1:$PORT_MCP/healthz" >/dev/null && break; sleep 0.1; done
sleep 0.5
H1="Content-Type: application/json"; H2="Accept: application/json, text/event-stream"
MCP_SESSION=$(curl -s -D - -o /dev/null -H "$H1" -H "$H2" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
  "http://127.0.0.1:$PORT_MCP/mcp" | awk 'tolower($1)=="mcp-session-id:"{print $2}' | tr -d '\r')
export MCP_SESSION MCP_BODY_TOOL=ha_get_state MCP_BODY_ARGS='{"entity_id":"light.kitchen_ceiling_light"}'
curl -s -H "$H1" -H "$H2" -H "Mcp-Session-Id: $MCP_SESSION" -H "MCP-Protocol-Version: 2025-11-25" \
  -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "http://127.0.0.1:$PORT_MCP/mcp" >/dev/null
curl -s -H "$H1" -H "$H2" -H "Mcp-Session-Id: $MCP_SESSION" -H "MCP-Protocol-Version: 2025-11-25" \
  -d "{\"jsonrpc\":\"2.0\",\"id\":\"1-0\",\"method\":\"tools/call\",\"params\":{\"name\":\"$MCP_BODY_TOOL\",\"arguments\":$MCP_BODY_ARGS}}" \
  "http://127.0.0.1:$PORT_MCP/mcp" >"$DIR/answer.json"
grep -q '"result"' "$DIR/answer.json" && ! grep -q '"isError":true' "$DIR/answer.json" || { echo "bad answer: $(cat "$DIR/answer.json")"; exit 1; }
"$BARE" --port "$PORT_BARE" --body-file "$DIR/answer.json" 2>/dev/null &
BARE_PID=$!
sleep 0.3
echo "answer: $(wc -c <"$DIR/answer.json") bytes; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {  # name port -> "name rps errors"
  out=$(wrk -t2 -c64 -d"${SECS}s" -s "$HERE/mcp_call.lua" "http://127.0.0.1:$2/mcp" 2>&1)
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  errs=$(echo "$out" | awk '/Non-2xx/{n+=$NF} /Socket errors/{gsub(",","");n+=$4+$6+$8+$10} END{print n+0}')
  echo "$1 $rps $errs"
}
: >"$DIR/results"
for i in $(seq "$RUNS"); do
  run bare "$PORT_BARE" | tee -a "$DIR/results"
  run hamcp "$PORT_MCP" | tee -a "$DIR/results"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
# The answers themselves: a short unmeasured run that checks every body.
MCP_VERIFY=1 wrk -t2 -c64 -d2s -s "$HERE/mcp_call.lua" "http://127.0.0.1:$PORT_MCP/mcp" | grep verify
for name in bare hamcp; do
  awk -v n=$name '$1==n{print $2}' "$DIR/results" | sort -n | awk -v n=$name '{a[NR]=$1; s=s" "$1} END{print "median", n, a[int((NR+1)/2)], "(" substr(s,2) ")"}'
  awk -v n=$name '$1==n{e+=$3} END{print "errors", n, e+0}' "$DIR/results"
done
