# Serial MCP tools/call latency over loopback HTTP (used by bench/ha/sync_memory.sh).
# usage: tool_latency.py PORT N   (N calls each of ha_get_state and ha_search)
import sys, statistics
from mcp_session import Session
port=int(sys.argv[1]); n=int(sys.argv[2])
s=Session(port,"lat")
call=s.call
# An entity every simulated size has (the sim names apartments differently at 100k).
ids=[i for i in ("light.apt_1a_office_ceiling_light","light.apt_14a_office_ceiling_light","light.office_ceiling_light")
     if b"entity_not_found" not in call("ha_get_state",{"entity_id":i})[1]][:1]
assert ids, "no known light entity in this simulated home"
qs=["kitchen light","livng room lihgt","temperature","Apt 12A bedroom","motion"]
for name,argf in [("ha_get_state",lambda i:{"entity_id":ids[0]}),("ha_search",lambda i:{"query":qs[i%len(qs)]})]:
    for i in range(10): call(name,argf(i))
    ts=sorted(call(name,argf(i))[0] for i in range(n))
    print(f"{name}: p50 {statistics.median(ts):.2f} ms  p90 {ts[int(len(ts)*0.9)]:.2f} ms (n={n}, round trip incl. python client)")
