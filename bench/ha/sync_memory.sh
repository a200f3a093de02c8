#!/bin/bash
# Peak/steady RSS and initial-sync time of the real hamcp server on a simulated home.
#   bench/ha/sync_memory.sh BUILD_DIR/hamcp ENTITIES [SIM_PORT HTTP_PORT]
# Starts `hamcp sim` (127.0.0.1 only), then `hamcp --http`, waits for the mirror's
# "synced N entities in X ms" log line (bounded: 60 s), prints VmHWM/VmRSS, runs
# bench/ha/tool_latency.py (200 ha_get_state + 200 ha_search calls over loopback HTTP),
# prints VmHWM/VmRSS again, and stops both processes.
set -u
bin=$1; n=$2; sp=${3:-18290}; hp=${4:-18291}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
"$bin" sim --host 127.0.0.1 --port "$sp" --token t --entities "$n" --seed 42 >/dev/null 2>&1 &
sim=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$sp/api/" && break; sleep 0.3; done
HOMEASSISTANT_URL=http://127.0.0.1:$sp HOMEASSISTANT_TOKEN=t "$bin" --http --port "$hp" >"$log" 2>&1 &
srv=$!
for _ in $(seq 600); do grep -q "mirror: synced" "$log" && break; sleep 0.1; done
grep -o "synced [0-9]* entities in [0-9]* ms" "$log" || echo "not synced within 60 s"
sleep 1
echo "after sync:    $(grep -E 'VmHWM|VmRSS' /proc/$srv/status | tr -s ' \n' ' ')"
python3 "$here/tool_latency.py" "$hp" 200
echo "after queries: $(grep -E 'VmHWM|VmRSS' /proc/$srv/status | tr -s ' \n' ' ')"
kill "$srv" "$sim"; wait "$srv" "$sim" 2>/dev/null; rm -f "$log"
