#!/bin/bash
# CPU time per call: user+sys time of each server process (from /proc/PID/stat)
# divided by the requests wrk completed against it, for the bare Beast
# yardstick and two hamcp builds, round after round (issue 9, item 6). On a
# shared machine the requests/s of one run swing with everyone else's load; the
# CPU a server spends per request depends far less on it, so this is the
# steadier figure of what a call costs. Same load as throughput_pairs.sh (wrk 2
# threads, 64 connections, one tools/call ha_get_state per request on one
# session, hamcp --http --demo; the bare server answers hamcp's own bytes).
# 127.0.0.1 only (ports 18950-18952).
#
#   bench/http/cpu_per_call.sh BARE HAMCP_A HAMCP_B [ROUNDS=3] [SECONDS=4]
set -eu
BARE=$1 A=$2 B=$3 ROUNDS=${4:-3} SECS=${5:-4}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d /tmp/hamcp-cpu.XXXXXX); chmod 700 "$DIR"
PIDS=""
trap 'for p in $PIDS; do kill $p 2>/dev/null; done; rm -rf $DIR' EXIT
H1="Content-Type: application/json"; H2="Accept: application/json, text/event-stream"
start() { # bin port name
  mkdir -p $DIR/$3
  "$1" --http --demo --port $2 --data-dir $DIR/$3 --max-calls-per-session 128 2>$DIR/$3.log & echo $! > $DIR/$3.pid; PIDS="$PIDS $!"
  for _ in $(seq 50); do curl -s "http://127.0.0.1:$2/healthz" >/dev/null && break; sleep 0.1; done; sleep 0.5
  curl -s -D - -o /dev/null -H "$H1" -H "$H2" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
    "http://127.0.0.1:$2/mcp" | awk 'tolower($1)=="mcp-session-id:"{print $2}' | tr -d '\r' > $DIR/$3.sid
  curl -s -H "$H1" -H "$H2" -H "Mcp-Session-Id: $(cat $DIR/$3.sid)" -H "MCP-Protocol-Version: 2025-11-25" \
    -d '{"jsonrpc":"2.0","id":"x","method":"tools/call","params":{"name":"ha_get_state","arguments":{"entity_id":"light.kitchen_ceiling_light"}}}' "http://127.0.0.1:$2/mcp" > $DIR/$3.json
}
start $A 18950 a; start $B 18951 b
$BARE --port 18952 --body-file $DIR/a.json 2>/dev/null & echo $! > $DIR/bare.pid; PIDS="$PIDS $!"; echo x > $DIR/bare.sid
sleep 0.3
export MCP_BODY_TOOL=ha_get_state MCP_BODY_ARGS='{"entity_id":"light.kitchen_ceiling_light"}'
tck=$(getconf CLK_TCK)
cpu() { awk '{print $14+$15}' /proc/$1/stat; }
for r in $(seq $ROUNDS); do
  for name in bare a b; do
    port=18952; [ $name = a ] && port=18950; [ $name = b ] && port=18951
    pid=$(cat $DIR/$name.pid); c0=$(cpu $pid)
    n=$(MCP_SESSION=$(cat $DIR/$name.sid) wrk -t2 -c64 -d${SECS}s -s "$HERE/mcp_call.lua" http://127.0.0.1:$port/mcp | awk '/requests in/{print $1}')
    c1=$(cpu $pid)
    awk -v n=$n -v c=$((c1-c0)) -v t=$tck -v name=$name -v r=$r -v l="$(cut -d' ' -f1 /proc/loadavg)" 'BEGIN{printf "round %d %s: %d requests, %.1f us CPU/request, load %s\n", r, name, n, c/t*1e6/n, l}'
  done
done
