"""The Python SDK `mcp` 2.x against hamcp's protocol core (the conformance fixture server), in
auto mode (probes server/discover) and pinned to 2026-07-28, over stdio and Streamable HTTP:
list, call, a resource read, a prompt, and a subscriptions/listen stream that receives a change."""
import asyncio
import os
import re
import subprocess

import pytest
from mcp import Client, StdioServerParameters

FIXTURE = os.environ["FIXTURE_BIN"]


@pytest.fixture(scope="module")
def http_url():
    proc = subprocess.Popen([FIXTURE, "--host", "127.0.0.1", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    url = None
    for _ in range(50):
        line = proc.stdout.readline()
        m = re.search(r"(http://127\.0\.0\.1:\d+/mcp)", line or "")
        if m:
            url = m.group(1)
            break
    assert url, "fixture server did not report its URL"
    yield url
    proc.terminate()
    proc.wait(10)


def targets(http_url):
    return {"http": http_url, "stdio": StdioServerParameters(command=FIXTURE, args=["--stdio"])}


async def exercise(server, mode):
    async with Client(server, mode=mode) as client:
        assert client.protocol_version == "2026-07-28"
        tools = await client.list_tools()
        assert any(t.name == "test_simple_text" for t in tools.tools)
        result = await client.call_tool("test_simple_text", {})
        assert result.content[0].text == "This is a simple text response for testing."
        read = await client.read_resource("test://static-text")
        assert read.contents[0].text
        prompt = await client.get_prompt("test_prompt_with_arguments", {"arg1": "a", "arg2": "b"})
        assert prompt.messages


@pytest.mark.parametrize("transport", ["http", "stdio"])
@pytest.mark.parametrize("mode", ["auto", "2026-07-28"])
def test_modern_client(http_url, transport, mode):
    asyncio.run(exercise(targets(http_url)[transport], mode))


def test_legacy_mode_still_works(http_url):
    async def run():
        async with Client(http_url, mode="legacy") as client:
            assert client.protocol_version == "2025-11-25"
            result = await client.call_tool("test_simple_text", {})
            assert result.content[0].text.startswith("This is a simple text")
    asyncio.run(run())


async def listen_for_tool_change(server, mode):
    async with Client(server, mode=mode) as client:
        async with client.listen(tools_list_changed=True) as sub:
            assert sub.honored.tools_list_changed
            # Another request changes the list (the fixture's trigger tool): the stream hears it.
            await client.call_tool("test_trigger_tool_change", {})
            event = await asyncio.wait_for(sub.__anext__(), 10)
            assert "tool" in type(event).__name__.lower() or "tools" in repr(event).lower()


@pytest.mark.parametrize("transport", ["http", "stdio"])
def test_listen_receives_a_change(http_url, transport):
    asyncio.run(listen_for_tool_change(targets(http_url)[transport], "2026-07-28"))
