#!/bin/sh
# Interleaved throughput of two hamcp builds against the bare Beast yardstick
# (issue 9): on a loaded machine the spread between runs of one binary is
# larger than the difference between builds, so every round runs
# bare, A, bare, B (each hamcp run paired with the bare run just before it)
# and the figure is the median of the per-pair ratios, with the load noted.
#
#   bench/http/throughput_pairs.sh BARE HAMCP_A HAMCP_B [ROUNDS=5] [SECONDS=8]
#
# Same load as throughput.sh: wrk 2 threads, 64 connections, one MCP
# tools/call ha_get_state per request on one session, hamcp --http --demo.
# Ends with a verification run per build (every answer a successful result).
set -eu
BARE=$1 A=$2 B=$3 ROUNDS=${4:-5} SECS=${5:-8}
HERE=$(cd "$(dirname "$0")" && pwd)
DIR=$(mktemp -d /tmp/hamcp-tpp.XXXXXX); chmod 700 "$DIR"
PIDS=""
cleanup() { for p in $PIDS; do kill "$p" 2>/dev/null || true; done; rm -rf "$DIR"; }
trap cleanup EXIT
H1="Content-Type: application/json"; H2="Accept: application/json, text/event-stream"
start_hamcp() {  # binary port name -> session id in $DIR/name.sid, answer in $DIR/name.json
  mkdir -p "$DIR/$3"
  "$1" --http --demo --port "$2" --data-dir "$DIR/$3" --max-calls-per-session 128 2>"$DIR/$3.log" &
  PIDS="$PIDS $!"
  for _ in $(seq 50); do curl -s "http://127.0.0.1:$2/healthz" >/dev/null && break; sleep 0.1; done
  sleep 0.5
  sid=$(curl -s -D - -o /dev/null -H "$H1" -H "$H2" -d '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"wrk","version":"1"}}}' \
    "http://127.0.0.1:$2/mcp" | awk 'tolower($1)=="mcp-session-id:"{print $2}' | tr -d '\r')
  curl -s -H "$H1" -H "$H2" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: 2025-11-25" \
    -d '{"jsonrpc":"2.0","method":"notifications/initialized"}' "http://127.0.0.1:$2/mcp" >/dev/null
  curl -s -H "$H1" -H "$H2" -H "Mcp-Session-Id: $sid" -H "MCP-Protocol-Version: 2025-11-25" \
    -d '{"jsonrpc":"2.0","id":"1-0","method":"tools/call","params":{"name":"ha_get_state","arguments":{"entity_id":"light.kitchen_ceiling_light"}}}' \
    "http://127.0.0.1:$2/mcp" >"$DIR/$3.json"
  grep -q '"result"' "$DIR/$3.json" && ! grep -q '"isError":true' "$DIR/$3.json" || { echo "bad answer from $3: $(cat "$DIR/$3.json")"; exit 1; }
  echo "$sid" >"$DIR/$3.sid"
}
start_hamcp "$A" 18970 a
start_hamcp "$B" 18971 b
cmp -s "$DIR/a.json" "$DIR/b.json" || echo "note: the two builds answer with different bytes ($(wc -c <"$DIR/a.json") / $(wc -c <"$DIR/b.json"))"
"$BARE" --port 18972 --body-file "$DIR/a.json" 2>/dev/null &
PIDS="$PIDS $!"
sleep 0.3
export MCP_BODY_TOOL=ha_get_state MCP_BODY_ARGS='{"entity_id":"light.kitchen_ceiling_light"}'
run() {  # port session -> "rps errors"
  out=$(MCP_SESSION=$2 wrk -t2 -c64 -d"${SECS}s" -s "$HERE/mcp_call.lua" "http://127.0.0.1:$1/mcp" 2>&1)
  rps=$(echo "$out" | awk '/Requests\/sec/{print $2}')
  errs=$(echo "$out" | awk '/Non-2xx/{n+=$NF} /Socket errors/{gsub(",","");n+=$4+$6+$8+$10} END{print n+0}')
  echo "$rps $errs"
}
echo "answer: $(wc -c <"$DIR/a.json") bytes; load before: $(cut -d' ' -f1-3 /proc/loadavg)"
: >"$DIR/results"
for i in $(seq "$ROUNDS"); do
  for name in a b; do
    set -- $(run 18972 x); bare=$1; berr=$2
    port=18970; [ "$name" = b ] && port=18971
    set -- $(run $port "$(cat "$DIR/$name.sid")"); rps=$1; err=$2
    ratio=$(awk -v h="$rps" -v b="$bare" 'BEGIN{printf "%.3f", h/b}')
    echo "round $i $name: bare $bare ($berr errors), hamcp $rps ($err errors), ratio $ratio, load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$DIR/results"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for name in a b; do
  port=18970; [ "$name" = b ] && port=18971
  printf "%s " "$name"; MCP_SESSION=$(cat "$DIR/$name.sid") MCP_VERIFY=1 wrk -t2 -c64 -d2s -s "$HERE/mcp_call.lua" "http://127.0.0.1:$port/mcp" | grep verify
  awk -v n="$name" '$3==n":"{gsub(",","",$13); print $13+0}' "$DIR/results" | sort -n |
    awk -v n="$name" '{a[NR]=$1; s=s" "$1} END{print "median ratio", n, a[int((NR+1)/2)], "(" substr(s,2) ")"}'
  awk -v n="$name" '$3==n":"{print $9}' "$DIR/results" | sort -n |
    awk -v n="$name" '{a[NR]=$1} END{print "median hamcp req/s", n, a[int((NR+1)/2)]}'
  awk -v n="$name" '$3==n":"{gsub("[(]","",$6); gsub("[(]","",$10); e+=$6+$10} END{print "errors", n, e+0}' "$DIR/results"
done
