"""The home as MCP resources (src/resources/) through the official MCP Python SDK against
`hamcp --demo` over stdio and Streamable HTTP: list and templates, read an entity, complete an
entity id, subscribe, change the entity in the simulated home (a service call through hamcp),
and receive notifications/resources/updated."""

from __future__ import annotations

import contextlib
import json

import anyio
import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from pydantic import AnyUrl

from conftest import HAMCP_BIN  # noqa: E402 - pytest puts this folder on sys.path
pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not HAMCP_BIN, reason="HAMCP_BIN not set")]

ENTITY = "light.kitchen_ceiling_light"
URI = f"ha://entity/{ENTITY}"


@contextlib.asynccontextmanager
async def open_session(kind: str, url: str | None, on_message):
    async def handler(message):
        if isinstance(message, types.ServerNotification):
            on_message(message.root)

    if kind == "stdio":
        async with stdio_client(StdioServerParameters(command=HAMCP_BIN, args=["--demo"])) as (read, write):
            async with ClientSession(read, write, message_handler=handler) as session:
                await session.initialize()
                yield session
    else:
        async with streamable_http_client(url) as (read, write, _get_id):
            async with ClientSession(read, write, message_handler=handler) as session:
                await session.initialize()
                yield session


async def read_json(s: ClientSession, uri: str) -> dict:
    r = await s.read_resource(AnyUrl(uri))
    assert r.contents[0].mimeType == "application/json"
    return json.loads(r.contents[0].text)


async def test_list_read_and_complete(kind, url):
    async with open_session(kind, url, lambda m: None) as s:
        listed = [str(r.uri) for r in (await s.list_resources()).resources]
        # the home's one fixed resource; the skills guide lists its skill:// files beside it
        assert [u for u in listed if u.startswith("ha://")] == ["ha://home"]
        assert "skill://home-assistant-authoring/SKILL.md" in listed
        templates = {t.uriTemplate for t in (await s.list_resource_templates()).resourceTemplates}
        assert "ha://entity/{entity_id}" in templates and "ha://area/{area_id}" in templates
        entity = await read_json(s, URI)
        assert entity["entity_id"] == ENTITY and entity["area_id"] == "kitchen"
        home = await read_json(s, "ha://home")
        assert home["domains"]["light"] > 0
        done = await s.complete(types.ResourceTemplateReference(type="ref/resource", uri="ha://entity/{entity_id}"),
                                {"name": "entity_id", "value": "light.kitch"})
        assert ENTITY in done.completion.values
        with pytest.raises(Exception) as missing:
            await s.read_resource(AnyUrl("ha://entity/light.nowhere"))
        assert "light.nowhere" in str(missing.value)


async def test_subscription_receives_an_update(kind, url):
    updated: list[str] = []

    def on_message(message):
        if isinstance(message, types.ResourceUpdatedNotification):
            updated.append(str(message.params.uri))

    async with open_session(kind, url, on_message) as s:
        before = (await read_json(s, URI))["state"]
        await s.subscribe_resource(AnyUrl(URI))
        r = await s.call_tool("ha_call_service", {"domain": "light", "service": "toggle", "entity_id": ENTITY})
        assert not r.isError, r.content[0].text
        with anyio.fail_after(15):
            while URI not in updated:
                await anyio.sleep(0.02)
        assert (await read_json(s, URI))["state"] != before
        await s.unsubscribe_resource(AnyUrl(URI))
        count = updated.count(URI)
        r = await s.call_tool("ha_call_service", {"domain": "light", "service": "toggle", "entity_id": ENTITY})
        assert not r.isError, r.content[0].text
        await anyio.sleep(0.5)
        assert updated.count(URI) == count  # unsubscribed: no more updates
