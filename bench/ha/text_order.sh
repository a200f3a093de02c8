#!/bin/bash
# Regenerates cmake/hamcp-text.order, the order in which gold lays out hamcp's functions
# (cmake/text_layout.cmake): the code a running server executes, gathered at the front of its run.
#   bench/ha/text_order.sh BIN [OUT]      (OUT: cmake/hamcp-text.order; needs valgrind)
# Two profiles of BIN under callgrind, each dumped while the server is still running (its shutdown
# code is not in them):
#   1. start: `hamcp --http` with HOMEASSISTANT_URL at a closed port, 3 s after it serves (idle).
#   2. sync: `hamcp --http` against `BIN sim --entities 1000 --seed 42` (loopback), after
#      "ha mirror: synced" and a few MCP calls (bench/ha/text_order_calls.py).
# Then text_order.py writes the sections: start-up's first, then what the sync and calls added.
# Best with build-ci/hamcp (BIN.map beside it gives exact section names); any Release hamcp works
# (GCC's naming rule). Rebuild afterwards: `ninja -C build-ci hamcp` relinks only.
set -u
here=$(cd "$(dirname "$0")" && pwd)
bin=$(realpath "$1"); out=${2:-$here/../../cmake/hamcp-text.order}
sp=18590; hp=18591
tmp=$(mktemp -d)
cg=(valgrind --tool=callgrind --demangle=no --dump-instr=no)
cleanup() { kill -9 ${vg:-} ${sim:-} 2>/dev/null; rm -rf "$tmp"; }
trap cleanup EXIT

wait_log() {  # file pattern seconds
  for _ in $(seq $(($3 * 10))); do grep -q "$2" "$1" && return 0; sleep 0.1; done
  echo "text_order: no \"$2\" in $1 after $3 s" >&2; tail -5 "$1" >&2; return 1
}
dump() {  # pid profile: callgrind writes PROFILE.1 on demand; then the server is killed
  callgrind_control -d "$1" >/dev/null
  for _ in $(seq 600); do [ -s "$2.1" ] && break; sleep 0.1; done
  sleep 1; kill -9 "$1"; wait "$1" 2>/dev/null
  [ -s "$2.1" ] || { echo "text_order: no dump $2.1" >&2; exit 1; }
}

# 1. start-up, nothing to talk to
HOMEASSISTANT_URL=http://127.0.0.1:9 HOMEASSISTANT_TOKEN=t \
  "${cg[@]}" --callgrind-out-file="$tmp/start" "$bin" --http --port $hp >"$tmp/start.log" 2>&1 &
vg=$!
wait_log "$tmp/start.log" "serving MCP" 300 || exit 1
sleep 3; dump $vg "$tmp/start"

# 2. a sync of 1,000 entities and a few calls
"$bin" sim --host 127.0.0.1 --port $sp --token t --entities 1000 --seed 42 >/dev/null 2>&1 &
sim=$!
for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$sp/api/" && break; sleep 0.3; done
HOMEASSISTANT_URL=http://127.0.0.1:$sp HOMEASSISTANT_TOKEN=t \
  "${cg[@]}" --callgrind-out-file="$tmp/sync" "$bin" --http --port $hp >"$tmp/sync.log" 2>&1 &
vg=$!
wait_log "$tmp/sync.log" "mirror: synced" 600 || exit 1
python3 "$here/text_order_calls.py" $hp || exit 1
sleep 2; dump $vg "$tmp/sync"
kill -9 $sim; wait $sim 2>/dev/null

python3 "$here/text_order.py" "$bin" "$out" "$tmp/start.1" "$tmp/sync.1"
