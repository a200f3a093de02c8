#!/bin/bash
# Memory and sync time of hamcp builds on the same simulated homes, runs interleaved.
#   bench/ha/mirror_memory.sh RUNS ENTITIES[,ENTITIES...] NAME=BIN [NAME=BIN ...]
# Per run and build: `hamcp sim --entities N --seed 42` (the first build's sim, loopback),
# then `hamcp --http` against it; waits (bounded: 180 s) for the log line "ha mirror: synced N
# entities in X ms", reads hamcp's CPU time (user+sys, ms, /proc/PID/stat: start-up + sync, so
# it does not depend on the machine's load as wall time does), sleeps 1 s and reads VmRSS and
# VmHWM (peak) from /proc. An "idle" row is hamcp with HOMEASSISTANT_URL pointing at a closed
# port, read 3 s after start.
# Prints one line per run, then the medians. MB = 1000 kB as /proc reports kB.
# MM_PORT (default 18490): the sim's port, hamcp's is the next; set it when two runs share a machine.
set -u
runs=$1; sizes=$2; shift 2
sim_bin=${1#*=}
sp=${MM_PORT:-18490}; hp=$((sp + 1))
tmp=$(mktemp -d)
tck=$(getconf CLK_TCK)
cpu_ms() { awk -v t="$tck" '{print int(($14 + $15) * 1000 / t)}' "/proc/$1/stat"; }
one() {  # name bin n -> "name n sync_ms rss_kB hwm_kB cpu_ms"
  local name=$1 bin=$2 n=$3 log=$tmp/log sim srv
  if [ "$n" = idle ]; then
    HOMEASSISTANT_URL=http://127.0.0.1:9 HOMEASSISTANT_TOKEN=t "$bin" --http --port $hp >$log 2>&1 &
    srv=$!; sleep 3
    echo "$name idle - $(awk '/VmRSS/{r=$2} /VmHWM/{h=$2} END{print r, h}' /proc/$srv/status) $(cpu_ms $srv)"
    kill $srv; wait $srv 2>/dev/null; return
  fi
  "$sim_bin" sim --host 127.0.0.1 --port $sp --token t --entities "$n" --seed 42 >/dev/null 2>&1 &
  sim=$!
  for _ in $(seq 200); do curl -s -o /dev/null "http://127.0.0.1:$sp/api/" && break; sleep 0.3; done
  : >"$log"  # emptied here, not by the child's redirection: the wait below must not read the last run's log
  HOMEASSISTANT_URL=http://127.0.0.1:$sp HOMEASSISTANT_TOKEN=t "$bin" --http --port $hp >>$log 2>&1 &
  srv=$!
  for _ in $(seq 1800); do grep -q "mirror: synced" $log && break; sleep 0.1; done
  local ms cpu; cpu=$(cpu_ms $srv); ms=$(grep -o "entities in [0-9]* ms" $log | grep -o "[0-9]*" | head -1)
  sleep 1
  echo "$name $n ${ms:-NA} $(awk '/VmRSS/{r=$2} /VmHWM/{h=$2} END{print r, h}' /proc/$srv/status) $cpu"
  kill $srv $sim; wait $srv $sim 2>/dev/null
}
{
  for n in idle ${sizes//,/ }; do
    for r in $(seq "$runs"); do
      for pair in "$@"; do one "${pair%%=*}" "${pair#*=}" "$n"; done
      echo "# load $(cut -d' ' -f1 /proc/loadavg)" >&2
    done
  done
} | tee $tmp/all
echo "median over $runs runs:  build entities sync_ms rss_MB peak_MB peak/rss cpu_ms"
awk '{k=$1" "$2; n[k]++; s[k,n[k]]=$3; r[k,n[k]]=$4; h[k,n[k]]=$5; u[k,n[k]]=$6}
  function med(a,k,c,  i,j,t,v){for(i=1;i<=c;i++)v[i]=a[k,i]; for(i=1;i<=c;i++)for(j=i+1;j<=c;j++)if(v[j]+0<v[i]+0){t=v[i];v[i]=v[j];v[j]=t} return v[int((c+1)/2)]}
  END{for(k in n){c=n[k]; rs=med(r,k,c); hw=med(h,k,c); printf "%s %s %.1f %.1f %.2f %s\n", k, med(s,k,c), rs/1000, hw/1000, hw/rs, med(u,k,c)}}' $tmp/all | sort -k2,2n -k1,1
rm -rf "$tmp"
