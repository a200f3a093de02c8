"""Entity tools (owner: tools helper) through the official MCP Python SDK against `hamcp --demo`
over stdio and Streamable HTTP: search, state, service call with confirmation, errors with
suggestions, schema violations, 6.x aliases, and 50 concurrent searches on one session."""

from __future__ import annotations

import contextlib
import json

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client

from conftest import HAMCP_BIN  # noqa: E402 - pytest puts this folder on sys.path
pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not HAMCP_BIN, reason="HAMCP_BIN not set")]


@contextlib.asynccontextmanager
async def open_session(kind: str, url: str | None):
    if kind == "stdio":
        async with stdio_client(StdioServerParameters(command=HAMCP_BIN, args=["--demo"])) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session
    else:
        async with streamable_http_client(url) as (read, write, _get_id):
            async with ClientSession(read, write) as session:
                await session.initialize()
                yield session


def error_of(result) -> dict:
    return json.loads(result.content[0].text)["error"]


async def test_search_state_and_control(kind, url):
    async with open_session(kind, url) as s:
        r = await s.call_tool("ha_search", {"query": "kitchen ceiling light", "limit": 3})
        assert not r.isError, r.content[0].text
        assert r.structuredContent["results"][0]["entity_id"] == "light.kitchen_ceiling_light"
        r = await s.call_tool("ha_get_state", {"entity_id": "light.kitchen_ceiling_light"})
        assert r.structuredContent["entity_id"] == "light.kitchen_ceiling_light"
        r = await s.call_tool("ha_call_service", {"domain": "light", "service": "toggle",
                                                  "entity_id": "light.kitchen_ceiling_light"})
        assert not r.isError, r.content[0].text
        assert r.structuredContent["status"] == "confirmed"
        op = r.structuredContent["operation_id"]
        r = await s.call_tool("ha_get_operation_status", {"operation_id": op})
        assert r.structuredContent["status"] == "confirmed"


async def test_errors_suggestions_and_aliases(kind, url):
    async with open_session(kind, url) as s:
        r = await s.call_tool("ha_get_state", {"entity_id": "light.kitchn_ceiling"})
        assert r.isError
        err = error_of(r)
        assert err["code"] == "entity_not_found"
        assert err["suggestions"][0] == "light.kitchen_ceiling_light"
        assert err["suggestion"]
        r = await s.call_tool("ha_search", {"limit": 0})
        assert r.isError and "arguments.limit" in r.content[0].text
        listed = {t.name for t in (await s.list_tools()).tools}
        assert "ha_search" in listed and "ha_search_entities" not in listed
        r = await s.call_tool("ha_search_entities", {"query": "porch", "domain_filter": "light"})
        assert not r.isError, r.content[0].text
        assert all(x["entity_id"].startswith("light.") for x in r.structuredContent["results"])


async def test_fifty_concurrent_searches(kind, url):
    async with open_session(kind, url) as s:
        failures = 0
        words = ["kitchen", "light", "temperature", "door", "motion", "bedroom", "heating", "lock", "tv", "garden"]

        async def one(i: int):
            nonlocal failures
            try:
                r = await s.call_tool("ha_search", {"query": words[i % len(words)]})
                if r.isError or not r.structuredContent["results"]:
                    failures += 1
            except Exception:  # noqa: BLE001 - any failure counts
                failures += 1

        with anyio.fail_after(60):
            async with anyio.create_task_group() as tg:
                for i in range(50):
                    tg.start_soon(one, i)
        assert failures == 0
