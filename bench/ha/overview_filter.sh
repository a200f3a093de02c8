#!/bin/bash
# ha_get_overview latency with an entity visibility filter on a simulated home.
#   bench/ha/overview_filter.sh BUILD_DIR/hamcp ENTITIES [N] [SIM_PORT HTTP_PORT]
# Starts `hamcp sim` (127.0.0.1 only, seed 42), then `hamcp --http` with
# --entities-deny (locks, every sensor.*temperature*, one area's worth of
# lights), waits for the mirror's sync (bounded: 60 s), prints the load
# average, runs bench/ha/overview_latency.py (N calls per detail level), and
# stops both processes.
set -u
bin=$1; n=$2; calls=${3:-200}; sp=${4:-18292}; hp=${5:-18293}
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
"$bin" sim --host 127.0.0.1 --port "$sp" --token t --entities "$n" --seed 42 >/dev/null 2>&1 &
sim=$!
for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$sp/api/" && break; sleep 0.3; done
HOMEASSISTANT_URL=http://127.0.0.1:$sp HOMEASSISTANT_TOKEN=t "$bin" --http --port "$hp" \
  --entities-deny 'lock,sensor.*temperature*,light.apt_1*' >"$log" 2>&1 &
srv=$!
for _ in $(seq 600); do grep -q "mirror: synced" "$log" && break; sleep 0.1; done
grep -o "synced [0-9]* entities in [0-9]* ms" "$log" || echo "not synced within 60 s"
sleep 1
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
python3 "$here/overview_latency.py" "$hp" "$calls"
kill "$srv" "$sim"; wait "$srv" "$sim" 2>/dev/null; rm -f "$log"
