# The MCP calls bench/ha/text_order.sh profiles after a sync: what a client does first and the
# everyday reads and one service call, over loopback HTTP. Errors are answers too (their code runs).
# usage: text_order_calls.py PORT
import http.client, json, sys
c = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]), timeout=120)
H = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
sid = None
def post(body):
    h = dict(H)
    if sid: h["Mcp-Session-Id"] = sid
    c.request("POST", "/mcp", json.dumps(body), h); r = c.getresponse(); d = r.read()
    return r, d
r, _ = post({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "order", "version": "1"}}})
sid = r.getheader("Mcp-Session-Id")
post({"jsonrpc": "2.0", "method": "notifications/initialized"})
n = 1
def rpc(method, params=None):
    global n
    n += 1
    r, d = post({"jsonrpc": "2.0", "id": n, "method": method, "params": params or {}})
    assert r.status == 200, (method, r.status, d[:200])
    return d
for m in ("tools/list", "resources/list", "prompts/list"):
    rpc(m)
def call(name, args):
    return rpc("tools/call", {"name": name, "arguments": args})
ids = [i for i in ("light.apt_1a_office_ceiling_light", "light.office_ceiling_light", "light.kitchen_light")
       if b"entity_not_found" not in call("ha_get_state", {"entity_id": i})]
light = (ids or ["light.kitchen_light"])[0]
calls = [("ha_get_state", {"entity_id": light}), ("ha_search_entities", {"query": "kitchen light"}),
         ("ha_search", {"query": "temperature"}), ("ha_get_overview", {}), ("ha_list_floors_areas", {}),
         ("ha_get_entity", {"entity_id": light}),
         ("ha_call_service", {"domain": "light", "service": "turn_on", "entity_id": light}),
         ("ha_get_history", {"entity_id": light})]
for name, args in calls * 2:
    call(name, args)
print(f"text_order_calls: {2 * len(calls) + len(ids) + 3} calls, session {sid is not None}")
