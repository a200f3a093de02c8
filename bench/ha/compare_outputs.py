# Byte-for-byte comparison of tool answers from two hamcp builds on the same simulated home.
# usage: compare_outputs.py PORT_A PORT_B   (both hamcp --http, synced against one `hamcp sim`)
# Read-only tools only (both servers see the same, unchanging home). Exit 1 on any difference.
import http.client, json, sys

def session(port):
    c = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    H = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    def post(body, sid=None):
        h = dict(H)
        if sid: h["Mcp-Session-Id"] = sid
        c.request("POST", "/mcp", json.dumps(body), h); r = c.getresponse(); return r, r.read()
    r, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
                 "capabilities": {}, "clientInfo": {"name": "cmp", "version": "1"}}})
    sid = r.getheader("Mcp-Session-Id")
    post({"jsonrpc": "2.0", "method": "notifications/initialized"}, sid)
    def call(name, args):
        _, d = post({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": name, "arguments": args}}, sid)
        return d
    return call

a, b = session(int(sys.argv[1])), session(int(sys.argv[2]))
ids = json.loads(a("ha_search", {"query": "", "limit": 50}))["result"]["structuredContent"]["results"]
ids = [x["entity_id"] for x in ids]
calls = [("ha_get_overview", {"detail": d}) for d in ("minimal", "standard", "full")]
calls += [("ha_get_overview", {"detail": "standard", "domains": ["light", "sensor"]})]
calls += [("ha_search", {"query": q, "limit": 20}) for q in
          ("kitchen light", "livng room lihgt", "temperature", "Apt 12A bedroom", "motion", "upstairs", "philips")]
calls += [("ha_search", {"query": "light", "fields": ["entity_id", "state", "attributes", "last_changed"]})]
calls += [("ha_search", {"query": "", "domain": "sensor", "limit": 30, "offset": 5})]
calls += [("ha_get_state", {"entity_id": i}) for i in ids]
calls += [("ha_get_state", {"entity_id": ids[:20], "attribute_keys": ["friendly_name", "brightness", "unit_of_measurement"]})]
calls += [("ha_get_state", {"entity_id": "light.does_not_exist"})]
calls += [("ha_get_entity", {"entity_id": i}) for i in ids[:20]]
calls += [("ha_list_services", {"domain": d}) for d in ("light", "climate", "cover")]
# The exact filters (area/floor ids and names, labels), from the home's own floors and areas.
floors = json.loads(a("ha_list_floors_areas", {}))["result"]["structuredContent"]["items"]
places = [("floor", f["floor_id"]) for f in floors[:3]] + [("floor", floors[0]["name"])]
places += [("area", x[k]) for f in floors[:2] for x in f["areas"][:4] for k in ("area_id", "name")]
calls += [("ha_search", {"query": q, pk: pv, "limit": 25}) for pk, pv in places for q in ("", "light")]
calls += [("ha_search", {"query": "", "label": lb, "limit": 25}) for lb in ("security", "energy", "night")]
diff = errors = size = 0
for name, args in calls:
    x, y = a(name, args), b(name, args)
    size += len(x)
    errors += b'"isError":true' in x
    if x != y:
        diff += 1
        print(f"DIFF {name} {json.dumps(args)[:120]}\n  A: {x[:300]!r}\n  B: {y[:300]!r}")
print(f"{len(calls)} calls ({errors} answered with a tool error, {size} bytes), {diff} differences")
sys.exit(1 if diff else 0)
