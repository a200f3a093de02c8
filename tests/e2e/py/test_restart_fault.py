"""The fault test of issue 13, through the official Python SDK: one client restarts Home Assistant
with `ha_restart` (confirm) while a second client keeps four calls at a time in flight on the same `hamcp --http`.
HA is `hamcp sim` with a 3 s restart gap, so many calls land while it is down. Every call of the second client ends within its bound, with success or with a structured
error whose code says what happened (the simulated HA drops its WebSocket and comes back); none
hangs. The restart answers `restarted: true` once HA is back, and both clients carry on."""

from __future__ import annotations

import contextlib
import json
import subprocess
import tempfile
import time

import anyio
import pytest

from conftest import HAMCP_BIN, read_until, stop
from test_tools import error_of, open_session

pytestmark = [pytest.mark.anyio]

CALL_BOUND_S = 30  # a call that takes longer than this has hung
MAX_CALLS = 400  # the second client's calls are bounded in count as well as in time
WORKERS = 4  # calls the second client keeps in flight at once


@contextlib.contextmanager
def hamcp_against_slow_restarting_sim():
    """`hamcp sim` (demo home, restart keeps it down 3 s) and `hamcp --http` against it; yields /mcp."""
    data = tempfile.TemporaryDirectory()
    sim_log, log = tempfile.TemporaryFile(), tempfile.TemporaryFile()
    sim = subprocess.Popen([HAMCP_BIN, "sim", "--port", "0", "--token", "t", "--restart-gap-ms", "3000"],
                           stdout=sim_log, stderr=subprocess.STDOUT)
    server = None
    try:
        ha_url = read_until(sim, sim_log, r'"url":"(http://127\.0\.0\.1:\d+)"', "hamcp sim")
        server = subprocess.Popen([HAMCP_BIN, "--http", "--host", "127.0.0.1", "--port", "0", "--data-dir", data.name,
                                   "--ha-url", ha_url, "--ha-token", "t"], stdout=log, stderr=subprocess.STDOUT)
        yield read_until(server, log, r"(http://127\.0\.0\.1:\d+/mcp)", "hamcp --http")
    finally:
        if server:
            stop(server)
        stop(sim)
        data.cleanup()


async def test_other_clients_calls_end_cleanly_during_a_restart():
    with hamcp_against_slow_restarting_sim() as url:
        async with open_session("http", url) as restarter, open_session("http", url) as other:
            outcomes: list[str] = []
            slowest: dict[str, float] = {}
            restart_result: dict = {}

            async def restart():
                with anyio.fail_after(120):
                    r = await restarter.call_tool("ha_restart", {"confirm": True})
                assert not r.isError, r.content[0].text
                restart_result.update(r.structuredContent)

            async def keep_calling(worker: int):
                deadline = time.monotonic() + 100
                for i in range(worker, MAX_CALLS, WORKERS):
                    if restart_result or time.monotonic() > deadline:
                        return
                    if i % 2:
                        name, args = "ha_call_service", {"domain": "light", "service": "toggle",
                                                         "entity_id": "light.porch_light", "wait": False}
                    else:
                        name, args = "ha_get_state", {"entity_id": "light.porch_light"}
                    t0 = time.monotonic()
                    with anyio.fail_after(CALL_BOUND_S):  # a hang fails the test here
                        r = await other.call_tool(name, args)
                    if r.isError:
                        err = error_of(r)
                        assert err.get("code"), json.dumps(err)  # a structured error, not a bare string
                        outcomes.append(err["code"])
                    else:
                        outcomes.append("ok")
                    slowest[name] = max(slowest.get(name, 0.0), time.monotonic() - t0)
                    await anyio.sleep(0.05)

            async with anyio.create_task_group() as tg:
                tg.start_soon(restart)
                for worker in range(WORKERS):
                    tg.start_soon(keep_calling, worker)

            assert restart_result.get("restarted") is True, restart_result
            assert "ok" in outcomes, outcomes
            print(f"restart fault: {len(outcomes)} calls of the other client: "
                  f"{ {code: outcomes.count(code) for code in sorted(set(outcomes))} }, slowest (s): { {k: round(v, 2) for k, v in slowest.items()} }")
            r = await other.call_tool("ha_get_state", {"entity_id": "light.porch_light"})
            assert not r.isError, r.content[0].text
            r = await restarter.call_tool("ha_get_state", {"entity_id": "light.porch_light"})
            assert not r.isError, r.content[0].text
