#!/bin/bash
# ha_get_overview latency with an entity visibility filter on a simulated home,
# and the same without a filter as the yardstick.
#   bench/ha/overview_filter.sh BUILD_DIR/hamcp ENTITIES [N] [SIM_PORT HTTP_PORT] [RUNS]
# For each of RUNS rounds (default 1), alternately: starts `hamcp sim` (127.0.0.1
# only, seed 42), then `hamcp --http` with --entities-deny (locks, every
# sensor.*temperature*, one area's worth of lights) or with no filter, waits for
# the mirror's sync (bounded: 60 s), prints the load average, runs
# bench/ha/overview_latency.py (N calls per detail level on a quiet home, then N
# with a visible / a hidden entity's state changed before each call), and stops
# both processes.
set -u
bin=$1; n=$2; calls=${3:-200}; sp=${4:-18292}; hp=${5:-18293}; runs=${6:-1}
here=$(cd "$(dirname "$0")" && pwd)
. "$here/sim_server.sh"
for run in $(seq "$runs"); do
  for mode in filter none; do
    echo "== run $run: $mode"
    if [ "$mode" = filter ]; then
      start_sim_server "$bin" "$n" "$sp" "$hp" --entities-deny 'lock,sensor.*temperature*,light.apt_1*'
    else
      start_sim_server "$bin" "$n" "$sp" "$hp"
    fi
    echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"
    python3 "$here/overview_latency.py" "$hp" "$calls" "$sp"
    stop_sim_server
  done
done
