"""Read-only mode (issue 14) through the official MCP Python SDK: a session opened on
`hamcp --http --demo`'s /mcp/readonly lists no write tool, refuses ha_call_service with the
read_only error and leaves the light as it was, while a session on /mcp still writes."""

from __future__ import annotations

import contextlib

import pytest
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client

from test_tools import error_of

pytestmark = [pytest.mark.anyio]

LIGHT = "light.kitchen_ceiling_light"


# Write tools with read actions: listed on /readonly, their writes refused by the gate.
MIXED = {"ha_manage_app", "ha_manage_radio", "ha_manage_blueprints", "ha_manage_backup", "ha_manage_updates", "ha_manage_hacs", "ha_manage_energy_prefs",
         "ha_manage_pipeline", "ha_manage_calendar", "ha_manage_todo"}


@contextlib.asynccontextmanager
async def session_at(url: str):
    async with streamable_http_client(url) as (read, write, _get_id):
        async with ClientSession(read, write) as session:
            await session.initialize()
            yield session


async def test_readonly_path_lists_reads_and_refuses_writes(demo_http_url):  # noqa: F811
    async with session_at(demo_http_url) as rw:
        everything = {t.name: t for t in (await rw.list_tools()).tools}
        before = (await rw.call_tool("ha_get_state", {"entity_id": LIGHT})).structuredContent["state"]
    async with session_at(demo_http_url + "/readonly") as ro:
        listed = {t.name: t for t in (await ro.list_tools()).tools}
        assert len(listed) < len(everything)
        assert "ha_call_service" not in listed and "ha_search" in listed
        for name, tool in listed.items():
            assert tool.annotations.readOnlyHint or name in MIXED, name
        r = await ro.call_tool("ha_call_service", {"domain": "light", "service": "toggle", "entity_id": LIGHT})
        assert r.isError
        err = error_of(r)
        assert err["code"] == "read_only" and err["written"] is False
        assert err["refused"]["request"] == "light.toggle"
        r = await ro.call_tool("ha_get_state", {"entity_id": LIGHT})
        assert not r.isError, r.content[0].text
        assert r.structuredContent["state"] == before
    async with session_at(demo_http_url) as rw:
        r = await rw.call_tool("ha_call_service", {"domain": "light", "service": "toggle", "entity_id": LIGHT})
        assert not r.isError, r.content[0].text
