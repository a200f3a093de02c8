# Serial ha_get_overview latency over loopback HTTP (used by bench/ha/overview_filter.sh).
# usage: overview_latency.py PORT N   (N calls per detail level, after 10 warm-up calls)
import http.client, json, sys, time, statistics
port = int(sys.argv[1]); n = int(sys.argv[2])
c = http.client.HTTPConnection("127.0.0.1", port)
H = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
def post(body, sid=None):
    h = dict(H)
    if sid: h["Mcp-Session-Id"] = sid
    c.request("POST", "/mcp", json.dumps(body), h); r = c.getresponse(); d = r.read()
    return r, d
r, d = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
            "capabilities": {}, "clientInfo": {"name": "overview-bench", "version": "1"}}})
sid = r.getheader("Mcp-Session-Id")
post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
def call(args):
    t = time.perf_counter()
    r, d = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                 "params": {"name": "ha_get_overview", "arguments": args}}, sid)
    return (time.perf_counter() - t) * 1000, d
for detail in ("minimal", "standard"):
    args = {"detail": detail}
    _, body = call(args)
    assert b'"isError":true' not in body, body[:300]
    text = body.decode()
    if text.startswith("event:") or text.startswith("data:"):
        text = next(l[5:] for l in text.splitlines() if l.startswith("data:"))
    sc = json.loads(text)["result"]["structuredContent"]
    counts = ",".join(f"{k}={v['count']}" for k, v in sorted(sc["domains"].items()))
    print(f"detail={detail}: home.entities={sc['home']['entities']} domains: {counts}")
    for _ in range(10): call(args)
    ts = sorted(call(args)[0] for _ in range(n))
    print(f"ha_get_overview detail={detail}: p50 {statistics.median(ts):.2f} ms  p90 {ts[int(len(ts) * 0.9)]:.2f} ms "
          f"(n={n}, round trip incl. python client)")
