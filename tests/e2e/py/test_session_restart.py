"""The seed scenario in the 2025 era (issue 15): a Python SDK 1.x client sets its logging level and
subscribes to an entity; `hamcp --http --demo` is SIGKILLed and restarted on the same port and data
dir; the same client session carries on. After the restart: every call succeeds, the debug level
chosen before is still in force (hamcp's per-call debug log arrives; the default level, info, would
hide it), and the old subscription still brings notifications/resources/updated on the GET stream."""

from __future__ import annotations

import socket
import subprocess
import tempfile

import anyio
import pytest
from mcp import ClientSession, types
from mcp.client.streamable_http import streamable_http_client
from pydantic import AnyUrl

from conftest import HAMCP_BIN, read_until, stop  # noqa: E402 - pytest puts this folder on sys.path

pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not HAMCP_BIN, reason="HAMCP_BIN not set")]

ENTITY = "light.kitchen_ceiling_light"
URI = f"ha://entity/{ENTITY}"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hamcp:
    """`hamcp --http --demo` on a fixed port and data dir, so it can be killed and started again."""

    def __init__(self, data_dir: str, port: int) -> None:
        self.data_dir, self.port, self.proc = data_dir, port, None

    def start(self) -> str:
        log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([HAMCP_BIN, "--http", "--demo", "--host", "127.0.0.1", "--port", str(self.port),
                                      "--data-dir", self.data_dir], stdout=log, stderr=subprocess.STDOUT)
        return read_until(self.proc, log, r"(http://127\.0\.0\.1:\d+/mcp)", "hamcp --http --demo")

    def kill(self) -> None:
        self.proc.kill()  # SIGKILL: nothing is flushed or saved on the way out
        self.proc.wait()


async def test_log_level_and_subscription_survive_a_kill_and_restart():
    updated: list[str] = []
    logs: list[types.LoggingMessageNotificationParams] = []

    async def on_message(message):
        if isinstance(message, types.ServerNotification) and isinstance(message.root,
                                                                        types.ResourceUpdatedNotification):
            updated.append(str(message.root.params.uri))

    async def on_log(params: types.LoggingMessageNotificationParams) -> None:
        logs.append(params)

    def tool_debug_logs() -> list:
        return [l for l in logs if l.level == "debug" and l.logger == "hamcp.tools"]

    with tempfile.TemporaryDirectory() as data:
        server = Hamcp(data, free_port())
        url = server.start()
        try:
            async with streamable_http_client(url) as (read, write, get_id):
                async with ClientSession(read, write, message_handler=on_message, logging_callback=on_log) as s:
                    await s.initialize()
                    session_id = get_id()
                    await s.set_logging_level("debug")
                    await s.subscribe_resource(AnyUrl(URI))
                    r = await s.call_tool("ha_get_state", {"entity_id": ENTITY})
                    assert not r.isError, r.content[0].text
                    assert tool_debug_logs(), "no debug log before the restart"

                    server.kill()
                    server.start()  # same port, same data dir, new process
                    logs.clear()
                    updated.clear()

                    failures = []
                    for i in range(5):  # the same client session: 0 failed calls
                        r = await s.call_tool("ha_get_state", {"entity_id": ENTITY})
                        if r.isError:
                            failures.append(r.content[0].text)
                    assert failures == []
                    assert get_id() == session_id  # not re-initialized: the same session
                    # The level chosen before the kill: debug logs still come (info would hide them).
                    assert len(tool_debug_logs()) >= 5, [l.data for l in logs]
                    # The subscription made before the kill: a change brings resources/updated.
                    with anyio.fail_after(20):
                        while URI not in updated:
                            r = await s.call_tool("ha_call_service", {"domain": "light", "service": "toggle",
                                                                      "entity_id": ENTITY})
                            assert not r.isError, r.content[0].text
                            await anyio.sleep(0.5)
        finally:
            if server.proc:
                stop(server.proc)
