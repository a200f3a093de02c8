"""The home as MCP resources (src/resources/) through hamcp's stdio against this real Home
Assistant: ha://home and an entity read from the mirror, an id completed, an unknown id answered
-32002, and a subscribed entity updated (notifications/resources/updated) when HA changes it."""

from __future__ import annotations

import json
import queue
import threading
import time

from check_kit import Ctx, McpStdio, expect

FLAG = "input_boolean.hamcp_test_flag"
URI = f"ha://entity/{FLAG}"


def read_json(m: McpStdio, uri: str) -> dict:
    r = m.request("resources/read", {"uri": uri})
    expect(r["contents"][0]["mimeType"] == "application/json", f"read {uri}: {r}")
    return json.loads(r["contents"][0]["text"])


def t_read_and_complete(c: Ctx):
    m = McpStdio(c)
    try:
        home = read_json(m, "ha://home")
        expect(home["entity_count"] > 0 and home["domains"].get("input_boolean", 0) >= 1, f"home: {str(home)[:400]}")
        flag = read_json(m, URI)
        expect(flag["entity_id"] == FLAG and flag["state"] in ("on", "off"), f"entity: {flag}")
        done = m.request("completion/complete", {"ref": {"type": "ref/resource", "uri": "ha://entity/{entity_id}"},
                                                 "argument": {"name": "entity_id", "value": "input_boolean.hamcp"}})
        expect(FLAG in done["completion"]["values"], f"completion: {done}")
        m.next_id += 1
        m.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": m.next_id, "method": "resources/read",
                                    "params": {"uri": "ha://entity/light.hamcp_nowhere"}}) + "\n")
        m.p.stdin.flush()
        while True:
            msg = json.loads(m.p.stdout.readline())
            if msg.get("id") == m.next_id:
                break
        expect(msg.get("error", {}).get("code") == -32002 and "light.hamcp_nowhere" in msg["error"]["message"],
               f"not found: {msg}")
    finally:
        m.close()


def t_subscription_update(c: Ctx):
    m = McpStdio(c)
    try:
        before = read_json(m, URI)["state"]
        m.request("resources/subscribe", {"uri": URI})
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in m.p.stdout], daemon=True).start()
        c.set_flag(before != "on")
        deadline = time.monotonic() + 15
        got = False
        while not got and time.monotonic() < deadline:
            try:
                msg = json.loads(lines.get(timeout=0.5))
            except queue.Empty:
                continue
            got = msg.get("method") == "notifications/resources/updated" and msg["params"]["uri"] == URI
        expect(got, "no notifications/resources/updated within 15 s after HA changed the entity")
    finally:
        c.set_flag(False)
        m.close()


TESTS = [
    ("hamcp.resources_read_and_complete", t_read_and_complete),
    ("hamcp.resources_subscription_update", t_subscription_update),
]
