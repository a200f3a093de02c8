"""What every real-HA check uses: the context (the HA's URL, token and version, hamcp's binaries),
expect / wait_until / Skip, and a minimal MCP client over hamcp's stdio. test_real_ha.py runs the
checks; family_*.py modules add a family's checks (each exports TESTS = [(name, fn), ...])."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from halib import HaWs, http, read_env_file  # noqa: E402

class Skip(Exception):
    pass


class Ctx:
    def __init__(self, run_dir: str, hamcp: str | None, unit_ha: str | None, ha_layer: str | None):
        self.run_dir = run_dir
        self.hamcp = hamcp
        self.unit_ha = unit_ha
        self.ha_layer = ha_layer
        self.reload_env()

    def reload_env(self):
        env = read_env_file(os.path.join(self.run_dir, "ha.env"))
        self.url = env["HOMEASSISTANT_URL"]
        self.token = env["HOMEASSISTANT_TOKEN"]
        self.version = env["HA_VERSION"]

    def get(self, path: str):
        return http("GET", self.url + path, token=self.token)[1]

    def post(self, path: str, body=None):
        return http("POST", self.url + path, token=self.token, json_body=body if body is not None else {})[1]

    def ws(self) -> HaWs:
        return HaWs(self.url, self.token)

    def state(self, entity_id: str) -> dict:
        return self.get(f"/api/states/{entity_id}")

    def set_flag(self, on: bool, entity_id: str = "input_boolean.hamcp_test_flag"):
        self.post(f"/api/services/input_boolean/turn_{'on' if on else 'off'}", {"entity_id": entity_id})


def expect(cond, msg: str):
    if not cond:
        raise AssertionError(msg)


def wait_until(what: str, probe, timeout: float = 15.0, interval: float = 0.2):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = probe()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what} (last: {last!r})")


def hamcp_env(c: Ctx, token: str | None = None) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("HOMEASSISTANT_", "SUPERVISOR_"))}
    env["HOMEASSISTANT_URL"] = c.url
    env["HOMEASSISTANT_TOKEN"] = token if token is not None else c.token
    return env


class McpStdio:
    """A minimal MCP client over hamcp's stdio (stdlib only): the entity tools against real HA."""

    def __init__(self, c: Ctx, extra_env: dict | None = None):
        if not c.hamcp or not os.access(c.hamcp, os.X_OK):
            raise Skip("no hamcp binary (pass --hamcp or set HAMCP_BUILD_DIR)")
        self.p = subprocess.Popen([c.hamcp], env={**hamcp_env(c), **(extra_env or {})}, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True, bufsize=1)
        self.next_id = 0
        init = self.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                           "clientInfo": {"name": "real-ha-test", "version": "1"}})
        expect("serverInfo" in init, f"initialize: {init}")
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")

    def request(self, method: str, params: dict) -> dict:
        self.next_id += 1
        self.p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n")
        self.p.stdin.flush()
        while True:
            line = self.p.stdout.readline()
            expect(line, f"hamcp closed stdout during {method}")
            msg = json.loads(line)
            if msg.get("id") == self.next_id:
                expect("error" not in msg, f"{method}: {msg.get('error')}")
                return msg["result"]

    def tool(self, name: str, args: dict, ok: bool | None = True) -> dict:
        r = self.request("tools/call", {"name": name, "arguments": args})
        expect(ok is None or bool(r.get("isError")) != ok, f"{name}({args}) isError={r.get('isError')}: {json.dumps(r)[:600]}")
        return r.get("structuredContent") or json.loads(r["content"][0]["text"])

    def close(self):
        self.p.stdin.close()
        try:
            self.p.wait(10)
        except subprocess.TimeoutExpired:
            self.p.kill()
