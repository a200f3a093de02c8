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
. "$here/sim_server.sh"
start_sim_server "$bin" "$n" "$sp" "$hp"
echo "after sync:    $(grep -E 'VmHWM|VmRSS' /proc/$srv/status | tr -s ' \n' ' ')"
python3 "$here/tool_latency.py" "$hp" 200
echo "after queries: $(grep -E 'VmHWM|VmRSS' /proc/$srv/status | tr -s ' \n' ' ')"
stop_sim_server
