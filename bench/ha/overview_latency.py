# Serial ha_get_overview latency over loopback HTTP (used by bench/ha/overview_filter.sh).
# usage: overview_latency.py PORT N [SIM_PORT]
#   N calls per detail level, after 10 warm-up calls, on a quiet home. With SIM_PORT,
#   then N minimal calls each with one state changed before every call (POST
#   /api/states to the simulator, then 50 ms for the mirror to take it): a
#   visible light, then a hidden lock (the filter of overview_filter.sh).
import http.client, json, sys, time, statistics
from mcp_session import Session
port = int(sys.argv[1]); n = int(sys.argv[2]); sim_port = int(sys.argv[3]) if len(sys.argv) > 3 else 0
s = Session(port, "overview-bench")


def report(label, ts):
    ts = sorted(ts)
    print(f"ha_get_overview {label}: p50 {statistics.median(ts):.2f} ms  p90 {ts[int(len(ts) * 0.9)]:.2f} ms "
          f"(n={n}, round trip incl. python client)")


for detail in ("minimal", "standard"):
    args = {"detail": detail}
    _, body = s.call("ha_get_overview", args)
    assert b'"isError":true' not in body, body[:300]
    text = body.decode()
    if text.startswith("event:") or text.startswith("data:"):
        text = next(l[5:] for l in text.splitlines() if l.startswith("data:"))
    sc = json.loads(text)["result"]["structuredContent"]
    counts = ",".join(f"{k}={v['count']}" for k, v in sorted(sc["domains"].items()))
    print(f"detail={detail}: home.entities={sc['home']['entities']} domains: {counts}")
    for _ in range(10): s.call("ha_get_overview", args)
    report(f"detail={detail}", [s.call("ha_get_overview", args)[0] for _ in range(n)])

if sim_port:
    sim = http.client.HTTPConnection("127.0.0.1", sim_port)
    auth = {"Authorization": "Bearer t", "Content-Type": "application/json"}
    sim.request("GET", "/api/states", headers=auth)
    ids = [st["entity_id"] for st in json.loads(sim.getresponse().read())]
    visible = next(i for i in ids if i.startswith("light.") and not i.startswith("light.apt_1"))
    hidden = next(i for i in ids if i.startswith("lock."))
    for label, entity, states in (("visible", visible, ("on", "off")), ("hidden", hidden, ("locked", "unlocked"))):
        ts = []
        for i in range(n):
            sim.request("POST", f"/api/states/{entity}", json.dumps({"state": states[i % 2]}), auth)
            sim.getresponse().read()
            time.sleep(0.05)
            ts.append(s.call("ha_get_overview", {"detail": "minimal"})[0])
        report(f"detail=minimal, {label} entity ({entity}) changed before each call", ts)
