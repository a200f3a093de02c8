"""Replicas behind a load balancer (tests/replicas/run.sh starts the simulated HA, two hamcp
replicas sharing one data dir, and nginx round robin in front). CLIENTS clients, each with one
session made once through nginx by the official MCP Python SDK, call tools for DURATION seconds;
halfway the driver SIGKILLs replica A and restarts it 2 s later.

Pass criteria (printed, exit 1 if any fails):
  - every call succeeds, except calls in flight on the killed replica: a failed call must have
    started before the kill (it was on the wire when A died); those are counted and reported;
  - every client keeps its one session id to the end (no re-initialize) and its calls after the
    kill succeed. The Python SDK (mcp 1.x) ends a client's whole transport when one POST answers an
    HTTP error, and nginx answers 502 for a POST the killed replica had taken (it is not replayed):
    that client re-opens its transport with the same session id (the Mcp-Session-Id header) and goes
    on without initializing again; the call is counted as failed in flight;
  - the SDK's GET streams that A was serving are re-opened for the same sessions on a live replica
    (nginx's access log: the GET on A ended by the kill, a later GET of that session answered 200).
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
from datetime import timedelta

from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client

URL = os.environ["REPLICAS_URL"]
CLIENTS = int(os.environ.get("REPLICAS_CLIENTS", "20"))
DURATION = float(os.environ.get("REPLICAS_SECONDS", "60"))
STATE = os.environ["REPLICAS_STATE"]  # a JSON file: {"pid_a": ..., "restart_a": [argv...]}
ACCESS_LOG = os.environ["REPLICAS_ACCESS_LOG"]
PORT_A = os.environ["REPLICAS_PORT_A"]

ENTITIES = ["light.kitchen_ceiling_light", "sun.sun", "switch.coffee_machine", "sensor.outdoor_climate_temperature"]


class Tally:
    def __init__(self) -> None:
        self.ok = 0
        self.failed: list[tuple[float, float, str]] = []  # (start, end, error)
        self.sessions: dict[int, str] = {}
        self.session_changed: list[int] = []
        self.ok_after_restart: dict[int, int] = {}
        self.reopened = 0  # transports re-opened after a 502 for a call in flight on the killed replica
        self.reopened_sids: set[str | None] = set()


class Client:
    """One SDK client: one session for the whole run, its transport re-opened after a 502."""

    def __init__(self, i: int, start: float, kill_at: list[float], tally: Tally) -> None:
        self.i, self.start, self.kill_at, self.tally = i, start, kill_at, tally
        self.sid: str | None = None
        self.call_started = 0.0  # the call on the wire when the transport ended

    async def run(self) -> None:
        while time.monotonic() - self.start < DURATION:
            headers = {"mcp-session-id": self.sid} if self.sid else None
            try:
                async with streamablehttp_client(URL, headers=headers, timeout=10, sse_read_timeout=300) as (
                        read, write, session_id):
                    async with ClientSession(read, write, read_timeout_seconds=timedelta(seconds=15)) as session:
                        if self.sid is None:
                            await session.initialize()
                            self.sid = session_id()
                            self.tally.sessions[self.i] = self.sid
                        await self.calls(session, session_id)
                return
            except BaseExceptionGroup as eg:
                if not self.lost_in_flight(eg):
                    raise
                self.tally.failed.append((self.call_started, time.monotonic(), f"transport ended: {eg.exceptions[0]}"[:300]))
                self.tally.reopened += 1
                self.tally.reopened_sids.add(self.sid)

    def lost_in_flight(self, eg: BaseExceptionGroup) -> bool:
        """The transport ended because a POST sent before the kill got nginx's 502."""
        leaf = eg
        while isinstance(leaf, BaseExceptionGroup) and len(leaf.exceptions) == 1:
            leaf = leaf.exceptions[0]
        status = getattr(getattr(leaf, "response", None), "status_code", None)
        return status == 502 and bool(self.kill_at) and self.call_started <= self.kill_at[0] + 0.05

    async def calls(self, session: ClientSession, session_id) -> None:
        n = 0
        while time.monotonic() - self.start < DURATION:
            entity = ENTITIES[(self.i + n) % len(ENTITIES)]
            n += 1
            t0 = self.call_started = time.monotonic()
            try:
                result = await session.call_tool("ha_get_state", {"entity_id": entity})
                if result.isError:
                    raise RuntimeError(f"tool error: {result.content[0].text[:200]}")
                self.tally.ok += 1
                if self.kill_at and t0 > self.kill_at[0] + 4:  # A restarted (2 s) and nginx retried it (2 s)
                    self.tally.ok_after_restart[self.i] = self.tally.ok_after_restart.get(self.i, 0) + 1
            except Exception as e:  # noqa: BLE001: every failure is classified below
                self.tally.failed.append((t0, time.monotonic(), f"{type(e).__name__}: {e}"[:300]))
            if (session_id() or self.sid) != self.sid:
                self.tally.session_changed.append(self.i)
                return
            await asyncio.sleep(0.02)


async def killer(start: float, kill_at: list[float]) -> None:
    await asyncio.sleep(DURATION / 2)
    with open(STATE) as f:
        state = json.load(f)
    kill_at.append(time.monotonic())
    kill_wall = time.time()
    os.kill(state["pid_a"], signal.SIGKILL)
    print(f"replicas: SIGKILLed replica A (pid {state['pid_a']}) at t={kill_at[0] - start:.1f} s", flush=True)
    await asyncio.sleep(2)
    log = open(state["log_a"], "ab")
    proc = subprocess.Popen(state["restart_a"], stdout=log, stderr=subprocess.STDOUT)
    state["pid_a"] = proc.pid
    state["kill_wall"] = kill_wall
    with open(STATE, "w") as f:
        json.dump(state, f)
    print(f"replicas: restarted replica A (pid {proc.pid})", flush=True)


def posts_on_restarted_replica(kill_wall: float) -> int:
    """Calls answered 200 by replica A after its restart: old sessions served by the new process."""
    count = 0
    with open(ACCESS_LOG) as f:
        for line in f:
            parts = line.split()
            if (len(parts) >= 6 and parts[1] == "POST" and parts[2] == "200" and parts[3].endswith(f":{PORT_A}")
                    and float(parts[0]) > kill_wall + 2.5):
                count += 1
    return count


def get_streams_reopened(kill_wall: float, transport_reopened: set) -> tuple[int, list[str]]:
    """Sessions whose GET stream A served when it was killed, and those not re-opened elsewhere.

    A client whose whole transport was re-opened (its POST got the 502) is left out: the SDK starts
    its GET stream only after sending notifications/initialized, which a resumed session never sends."""
    cut, later_ok = set(), {}
    with open(ACCESS_LOG) as f:
        for line in f:
            parts = line.split()
            if len(parts) < 6 or parts[1] != "GET":
                continue
            ended, status, upstream, sid = float(parts[0]), parts[2], parts[3], parts[4].strip('"')
            if upstream.endswith(f":{PORT_A}") and abs(ended - kill_wall) < 1.5 and sid not in transport_reopened:
                cut.add(sid)
            elif status == "200" and ended > kill_wall + 0.5:
                later_ok[sid] = upstream
    return len(cut), sorted(s for s in cut if s not in later_ok)


async def main() -> int:
    start = time.monotonic()
    kill_at: list[float] = []
    tally = Tally()
    results = await asyncio.gather(*(Client(i, start, kill_at, tally).run() for i in range(CLIENTS)),
                                   killer(start, kill_at), return_exceptions=True)
    errors = [r for r in results if isinstance(r, BaseException)]
    in_flight = [f for f in tally.failed if kill_at and f[0] <= kill_at[0] + 0.05 <= f[1] + 0.05]
    other = [f for f in tally.failed if f not in in_flight]
    with open(STATE) as f:
        kill_wall = json.load(f)["kill_wall"]
    cut, not_reopened = get_streams_reopened(kill_wall, tally.reopened_sids)
    on_restarted = posts_on_restarted_replica(kill_wall)
    print(f"replicas: {CLIENTS} clients, {DURATION:.0f} s: {tally.ok} calls succeeded, "
          f"{len(in_flight)} failed in flight on the killed replica ({tally.reopened} re-opened their transport), "
          f"{len(other)} other failures")
    print(f"replicas: sessions: {len(tally.sessions)} made, {len(tally.session_changed)} changed id; "
          f"{len(tally.ok_after_restart)} clients called successfully after the restart; "
          f"the restarted replica A answered {on_restarted} calls of sessions made before")
    print(f"replicas: GET streams on the killed replica: {cut} (not counting {len(tally.reopened_sids)} whose client "
          f"re-opened its transport), re-opened on a live replica: {cut - len(not_reopened)}")
    for f in other[:10]:
        print(f"replicas: FAILED call at t={f[0] - start:.2f}..{f[1] - start:.2f} s: {f[2]}")
    for e in errors[:5]:
        leaves = e.exceptions if isinstance(e, BaseExceptionGroup) else [e]
        print(f"replicas: client error: {type(e).__name__}: {e}: " + "; ".join(f"{type(x).__name__}: {x}" for x in leaves))
    good = (not errors and not other and len(tally.sessions) == CLIENTS and not tally.session_changed
            and len(tally.ok_after_restart) == CLIENTS and on_restarted > 0 and cut > 0 and not not_reopened)
    print(f"{1 if good else 0} passed, {0 if good else 1} failed, 0 skipped")
    return 0 if good else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
