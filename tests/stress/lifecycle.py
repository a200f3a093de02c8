#!/usr/bin/env python3
"""Lifecycle stress (issue 8): sessions end in every way while their tool calls wait on HA.

Starts a simulated Home Assistant (`hamcp sim`) and a hamcp (`--http`, pointed at it), both from
HAMCP_STRESS_BIN (the ASan or TSan build in CI), then for a bounded time runs workers that, across
many sessions, put hundreds of tool calls in flight and then:
  - DELETE the session (after one batch, or after many separate POSTs),
  - drop the HTTP connection mid-answer,
  - send notifications/cancelled for calls in flight,
  - give up on a call (client timeout) and close,
  - drop a legacy SSE stream with calls in flight,
while a chaos task makes HA slow, drops its WebSockets and restarts it, and a probe session keeps
asking for a state. Pass: the server never dies, its stderr holds no sanitizer report, every probe
got an HTTP answer, most of them (>= 50 %) a tool result, and the server answers at the end.

  HAMCP_STRESS_BIN=build-asan/hamcp python3 tests/stress/lifecycle.py [--seconds 60]
"""
import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from mcp_wire import (Connection, HttpError, MCP_HEADERS, messages_from_body, open_session,  # noqa: E402
                      read_response, rpc, session_headers, tool_call)

TOKEN = "stress-token-0123456789"
SANITIZER_MARKS = ("ERROR: AddressSanitizer", "runtime error:", "WARNING: ThreadSanitizer",
                   "ERROR: LeakSanitizer", "SUMMARY: UndefinedBehaviorSanitizer")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Servers:
    def __init__(self, binary, sim_binary, workdir):
        self.binary = binary
        self.sim_binary = sim_binary
        self.workdir = workdir
        self.sim_port = free_port()
        self.mcp_port = free_port()
        self.sim_log = open(os.path.join(workdir, "sim.stderr"), "w+")
        self.mcp_log = open(os.path.join(workdir, "hamcp.stderr"), "w+")
        self.sim = None
        self.mcp = None

    def start(self):
        self.sim = subprocess.Popen([self.sim_binary, "sim", "--port", str(self.sim_port), "--token", TOKEN,
                                     "--entities", "300", "--seed", "7"],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.sim_log)
        wait_http(self.sim_port, "/api/", {"Authorization": f"Bearer {TOKEN}"})
        env = dict(os.environ, HOMEASSISTANT_URL=f"http://127.0.0.1:{self.sim_port}", HOMEASSISTANT_TOKEN=TOKEN)
        self.mcp = subprocess.Popen([self.binary, "--http", "--port", str(self.mcp_port),
                                     "--data-dir", os.path.join(self.workdir, "data"), "--log-level", "warn"],
                                    stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.mcp_log, env=env)
        wait_http(self.mcp_port, "/healthz", {})

    def fault(self, action, **params):
        body = json.dumps(dict(action=action, **params)).encode()
        req = urllib.request.Request(f"http://127.0.0.1:{self.sim_port}/api/hamcp_sim/fault", data=body,
                                     headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read() or b"{}")

    def entity_ids(self):
        req = urllib.request.Request(f"http://127.0.0.1:{self.sim_port}/api/states",
                                     headers={"Authorization": f"Bearer {TOKEN}"})
        with urllib.request.urlopen(req, timeout=10) as r:
            return [s["entity_id"] for s in json.loads(r.read())]

    def stop(self):
        """SIGTERM both; returns hamcp's exit code (None if it had to be killed)."""
        codes = {}
        for name, proc in (("hamcp", self.mcp), ("sim", self.sim)):
            if proc is None:
                continue
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()
                    codes[name] = None
                    continue
            codes[name] = proc.returncode
        return codes

    def sanitizer_reports(self):
        found = []
        for f in (self.mcp_log, self.sim_log):
            f.flush()
            f.seek(0)
            text = f.read()
            for mark in SANITIZER_MARKS:
                if mark in text:
                    i = text.index(mark)
                    found.append(text[max(0, i - 200):i + 3000])
                    break
        return found


def wait_http(port, path, headers, limit=60.0):
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            req = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
            with urllib.request.urlopen(req, timeout=2):
                return
        except Exception:  # noqa: BLE001 - not up yet
            time.sleep(0.1)
    raise RuntimeError(f"server on port {port} did not answer {path} within {limit}s")


def vm_rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


class Stats:
    def __init__(self):
        self.counts = {}
        self.probe_ms = []
        self.probe_ok = 0
        self.probe_refused = 0
        self.probe_failed = []
        self.rss_kib = []

    def count(self, key, n=1):
        self.counts[key] = self.counts.get(key, 0) + n


class Stress:
    def __init__(self, servers, ids, deadline, stats, rng):
        self.s = servers
        self.port = servers.mcp_port
        self.ids = ids
        self.deadline = deadline
        self.stats = stats
        self.rng = rng
        self.next_id = 1

    def calls(self, n):
        out = []
        for _ in range(n):
            self.next_id += 1
            eid = self.rng.choice(self.ids)
            kind = self.rng.randrange(6)
            if kind == 0:
                out.append(tool_call(self.next_id, "ha_get_logs", {"source": "logbook", "entity_id": eid}))
            elif kind == 1:
                out.append(tool_call(self.next_id, "ha_get_history", {"entity_id": eid, "start": "1h"}))
            elif kind == 2:
                out.append(tool_call(self.next_id, "ha_eval_template", {"template": "{{ states | count }}"}))
            elif kind == 3 and eid.split(".")[0] in ("light", "switch", "fan", "input_boolean"):
                out.append(tool_call(self.next_id, "ha_call_service",
                                     {"service": "toggle", "entity_id": eid, "wait": True, "timeout": 2}))
            elif kind == 4:
                out.append(tool_call(self.next_id, "ha_get_logs", {"source": "system"}))
            else:
                out.append(tool_call(self.next_id, "ha_get_state", {"entity_id": eid}))
        return out

    async def delete(self, sid):
        conn = await Connection(self.port).open()
        try:
            status, _, _ = await conn.request("DELETE", "/mcp", session_headers(sid))
            self.stats.count(f"delete_{status}")
        finally:
            await conn.close()

    async def post_calls_in_background(self, sid, calls):
        """POSTs `calls` on a fresh connection; returns (conn, task reading the answer)."""
        conn = await Connection(self.port).open()
        body = json.dumps(calls if len(calls) > 1 else calls[0]).encode()
        await conn.send("POST", "/mcp", session_headers(sid), body)
        task = asyncio.ensure_future(read_response(conn.reader))
        # A scenario cut short by a refusal never settles its task: its error is expected, not news.
        task.add_done_callback(lambda t: t.cancelled() or t.exception())
        return conn, task

    async def settle(self, task, conn, limit):
        try:
            status, headers, body = await asyncio.wait_for(task, limit)
            self.stats.count(f"post_{status}")
            if status == 200:
                self.stats.count("answers", len(messages_from_body(headers, body)))
        except (asyncio.TimeoutError, HttpError, ConnectionError, asyncio.IncompleteReadError, ValueError):
            self.stats.count("post_unanswered")
        finally:
            conn.abort()

    async def pause(self, lo, hi):
        await asyncio.sleep(self.rng.uniform(lo, hi))

    # --- the ways a session ends while its calls are in flight ------------------------------------
    async def batch_then_delete(self):
        conn, sid = await open_session(self.port)
        await conn.close()
        c, task = await self.post_calls_in_background(sid, self.calls(self.rng.randint(20, 300)))
        await self.pause(0.0, 0.3)
        await self.delete(sid)
        await self.settle(task, c, 10)

    async def many_posts_then_delete(self):
        conn, sid = await open_session(self.port)
        await conn.close()
        posts = [await self.post_calls_in_background(sid, self.calls(1)) for _ in range(self.rng.randint(5, 60))]
        await self.pause(0.0, 0.2)
        await self.delete(sid)
        for c, task in posts:
            await self.settle(task, c, 10)

    async def drop_connection_mid_answer(self):
        conn, sid = await open_session(self.port)
        await conn.close()
        c, task = await self.post_calls_in_background(sid, self.calls(self.rng.randint(5, 100)))
        await self.pause(0.0, 0.3)
        task.cancel()
        c.abort()
        await asyncio.gather(task, return_exceptions=True)
        self.stats.count("dropped_connections")
        if self.rng.random() < 0.5:
            await self.delete(sid)

    async def cancel_in_flight(self):
        conn, sid = await open_session(self.port)
        calls = self.calls(self.rng.randint(5, 80))
        c, task = await self.post_calls_in_background(sid, calls)
        await self.pause(0.0, 0.2)
        notes = [rpc("notifications/cancelled", {"requestId": m["id"], "reason": "stress"})
                 for m in calls if self.rng.random() < 0.7]
        if notes:
            status, _, _ = await conn.request("POST", "/mcp", session_headers(sid), json.dumps(notes).encode())
            self.stats.count(f"cancel_{status}")
        await self.settle(task, c, 10)
        await conn.close()
        await self.delete(sid)

    async def client_timeout(self):
        conn, sid = await open_session(self.port)
        await conn.close()
        c, task = await self.post_calls_in_background(sid, self.calls(self.rng.randint(1, 40)))
        await self.settle(task, c, self.rng.uniform(0.01, 0.2))  # gives up early, then closes
        self.stats.count("client_timeouts")

    async def legacy_sse_drop(self):
        sse = await Connection(self.port).open()
        await sse.send("GET", "/sse", {"Accept": "text/event-stream"})
        endpoint = None
        deadline = time.monotonic() + 5
        while endpoint is None and time.monotonic() < deadline:
            line = await asyncio.wait_for(sse.reader.readline(), 5)
            if not line:
                break
            text = line.decode("utf-8", "replace").strip()
            if text.startswith("data:") and "sessionId=" in text:
                endpoint = text[5:].strip()
        if endpoint is None:
            sse.abort()
            self.stats.count("sse_refused")
            return
        post = await Connection(self.port).open()
        try:
            init = rpc("initialize", {"protocolVersion": "2024-11-05", "capabilities": {},
                                      "clientInfo": {"name": "stress-sse", "version": "1"}}, 0)
            await post.request("POST", endpoint, {"Content-Type": "application/json"}, json.dumps(init).encode())
            await post.request("POST", endpoint, {"Content-Type": "application/json"},
                               json.dumps(rpc("notifications/initialized")).encode())
            for call in self.calls(self.rng.randint(5, 40)):
                status, _, _ = await post.request("POST", endpoint, {"Content-Type": "application/json"},
                                                  json.dumps(call).encode())
                self.stats.count(f"sse_post_{status}")
            await self.pause(0.0, 0.2)
        finally:
            sse.abort()
            await post.close()
        self.stats.count("sse_dropped")

    async def worker(self):
        scenarios = [self.batch_then_delete, self.many_posts_then_delete, self.drop_connection_mid_answer,
                     self.cancel_in_flight, self.client_timeout, self.legacy_sse_drop]
        while time.monotonic() < self.deadline:
            scenario = self.rng.choice(scenarios)
            try:
                await scenario()
                self.stats.count(scenario.__name__)
            except (HttpError, ConnectionError, OSError, asyncio.TimeoutError, asyncio.IncompleteReadError) as e:
                # Refusals (429/503) and resets are allowed answers under load; a dead server is caught below.
                self.stats.count(f"refused_{type(e).__name__}")
                await asyncio.sleep(0.05)

    async def chaos(self):
        """Home Assistant misbehaves: slow answers, dropped WebSockets, a restart."""
        restarted = False
        while time.monotonic() < self.deadline:
            await asyncio.sleep(self.rng.uniform(0.5, 1.5))
            roll = self.rng.random()
            loop = asyncio.get_running_loop()
            if roll < 0.4:
                await loop.run_in_executor(None, lambda: self.s.fault("delay", ms=self.rng.choice([0, 50, 150, 400])))
                self.stats.count("ha_delay_changed")
            elif roll < 0.8:
                await loop.run_in_executor(None, lambda: self.s.fault("drop_websockets"))
                self.stats.count("ha_websockets_dropped")
            elif not restarted:
                await loop.run_in_executor(None, lambda: self.s.fault("restart"))
                restarted = True
                self.stats.count("ha_restarted")

    async def probe(self):
        """A well-behaved client: one session, one call at a time, all along."""
        conn, sid = await open_session(self.port)
        n = 0
        while time.monotonic() < self.deadline:
            n += 1
            call = tool_call(10_000_000 + n, "ha_get_state", {"entity_id": self.ids[0]})
            t0 = time.monotonic()
            try:
                status, headers, body = await asyncio.wait_for(
                    conn.request("POST", "/mcp", session_headers(sid), json.dumps(call).encode()), 10)
                self.stats.probe_ms.append((time.monotonic() - t0) * 1000)
                if status == 200 and any("result" in m for m in messages_from_body(headers, body)):
                    self.stats.probe_ok += 1
                elif status in (429, 503):
                    self.stats.probe_refused += 1
                else:
                    self.stats.probe_failed.append(f"HTTP {status}: {body[:200]!r}")
            except Exception as e:  # noqa: BLE001 - every failure of the probe is recorded
                self.stats.probe_failed.append(f"{type(e).__name__}: {e}")
                conn.abort()
                conn, sid = await open_session(self.port)
            self.stats.rss_kib.append(vm_rss_kib(self.s.mcp.pid))
            await asyncio.sleep(0.05)
        await conn.close()


async def run(servers, seconds, workers, seed):
    rng = random.Random(seed)
    ids = servers.entity_ids()
    rng.shuffle(ids)
    stats = Stats()
    stress = Stress(servers, ids, time.monotonic() + seconds, stats, rng)
    tasks = [stress.worker() for _ in range(workers)] + [stress.chaos(), stress.probe()]
    await asyncio.wait_for(asyncio.gather(*tasks), seconds + 120)
    await servers_answer(servers)
    return stats


async def servers_answer(servers):
    """After the storm, a fresh client still gets a tool answer."""
    servers.fault("clear")
    for _ in range(50):
        try:
            conn, sid = await open_session(servers.mcp_port)
            status, headers, body = await conn.request(
                "POST", "/mcp", session_headers(sid), json.dumps(tool_call(1, "ha_search", {"query": "light"})).encode())
            await conn.close()
            if status == 200 and messages_from_body(headers, body):
                return
        except (HttpError, ConnectionError, OSError):
            pass
        await asyncio.sleep(0.2)
    raise RuntimeError("the server did not answer a tool call after the stress run")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=float(os.environ.get("STRESS_SECONDS", "60")))
    ap.add_argument("--workers", type=int, default=24)
    ap.add_argument("--seed", type=int, default=int(os.environ.get("STRESS_SEED", "1")))
    args = ap.parse_args()
    binary = os.environ.get("HAMCP_STRESS_BIN")
    if not binary or not os.access(binary, os.X_OK):
        print("lifecycle: set HAMCP_STRESS_BIN to a hamcp binary", file=sys.stderr)
        return 2
    workdir = tempfile.mkdtemp(prefix="hamcp-stress-")
    sim_binary = os.environ.get("HAMCP_STRESS_SIM_BIN") or binary
    servers = Servers(binary, sim_binary, workdir)
    failures = []
    stats = None
    try:
        servers.start()
        stats = asyncio.run(run(servers, args.seconds, args.workers, args.seed))
    except Exception as e:  # noqa: BLE001
        failures.append(f"run: {type(e).__name__}: {e}")
    alive = servers.mcp is not None and servers.mcp.poll() is None
    if not alive:
        failures.append(f"hamcp died during the run (exit {servers.mcp.returncode if servers.mcp else '?'})")
    codes = servers.stop()
    if alive and codes.get("hamcp") not in (0,):
        failures.append(f"hamcp exited {codes.get('hamcp')} on SIGTERM")
    for report in servers.sanitizer_reports():
        failures.append("sanitizer report:\n" + report)
    if stats is not None:
        probes = len(stats.probe_ms) + len(stats.probe_failed)
        if stats.probe_failed:
            failures.append(f"{len(stats.probe_failed)} of {probes} probes got no answer: {stats.probe_failed[:5]}")
        if probes and stats.probe_ok < probes / 2:
            failures.append(f"only {stats.probe_ok} of {probes} probes got a tool result")
        ms = sorted(stats.probe_ms) or [0.0]
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(f"lifecycle: {args.seconds:.0f}s, {args.workers} workers, seed {args.seed}; probe: {probes} calls, "
              f"{stats.probe_ok} ok, {stats.probe_refused} refused, p50 {statistics.median(ms):.1f} ms, p99 {p99:.1f} ms; "
              f"hamcp RSS peak {max(stats.rss_kib or [0]) / 1024:.1f} MiB, last {(stats.rss_kib or [0])[-1] / 1024:.1f} MiB")
        print("lifecycle: " + ", ".join(f"{k}={v}" for k, v in sorted(stats.counts.items())))
    for f in failures:
        print(f"lifecycle: FAIL: {f}", file=sys.stderr)
    print(f"lifecycle: logs in {workdir}")
    print(f"{0 if failures else 1} passed, {1 if failures else 0} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
