"""Prompts with argument completion and the skills guide through the official MCP Python SDK against
`hamcp --demo` over stdio and Streamable HTTP: prompts/list, completion/complete, prompts/get with a
completed argument, the skill:// resources and ha_get_skill_guide."""

from __future__ import annotations

import contextlib

import pytest
from mcp import ClientSession, StdioServerParameters, types
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import McpError

from conftest import HAMCP_BIN  # noqa: E402 - pytest puts this folder on sys.path
pytestmark = [pytest.mark.anyio, pytest.mark.skipif(not HAMCP_BIN, reason="HAMCP_BIN not set")]

SKILL_MD = "skill://home-assistant-authoring/SKILL.md"


@contextlib.asynccontextmanager
async def open_session(kind: str, url: str | None):
    if kind == "stdio":
        async with stdio_client(StdioServerParameters(command=HAMCP_BIN, args=["--demo"])) as (read, write):
            async with ClientSession(read, write) as session:
                yield session, await session.initialize()
    else:
        async with streamable_http_client(url) as (read, write, _get_id):
            async with ClientSession(read, write) as session:
                yield session, await session.initialize()


async def test_prompt_with_completion(kind, url):
    async with open_session(kind, url) as (s, init):
        assert init.capabilities.prompts is not None
        assert init.capabilities.completions is not None
        names = {p.name for p in (await s.list_prompts()).prompts}
        assert {"troubleshoot_automation", "review_energy", "tidy_areas_and_names", "write_automation"} <= names

        ref = types.PromptReference(type="ref/prompt", name="troubleshoot_automation")
        done = await s.complete(ref, {"name": "automation_id", "value": "automation.hall"})
        assert done.completion.values, done
        automation = done.completion.values[0]
        assert automation.startswith("automation.hall")

        got = await s.get_prompt("troubleshoot_automation", {"automation_id": automation})
        text = got.messages[0].content.text
        assert automation in text and "ha_get_automation_traces" in text

        periods = await s.complete(types.PromptReference(type="ref/prompt", name="review_energy"),
                                   {"name": "period", "value": "w"})
        assert periods.completion.values == ["week"]
        energy = await s.get_prompt("review_energy", {"period": "week"})
        assert "sensor.grid_meter_energy_import" in energy.messages[0].content.text

        with pytest.raises(McpError) as missing:
            await s.get_prompt("troubleshoot_automation", {})
        assert missing.value.error.code == -32602


async def test_skill_resources_and_tool(kind, url):
    async with open_session(kind, url) as (s, _init):
        resources = {str(r.uri): r for r in (await s.list_resources()).resources}
        assert SKILL_MD in resources
        assert resources[SKILL_MD].mimeType == "text/markdown"
        read = await s.read_resource(SKILL_MD)
        assert read.contents[0].text.startswith("---\nname: home-assistant-authoring\n")

        guide = await s.call_tool("ha_get_skill_guide", {"topic": "refactoring"})
        assert not guide.isError
        assert "config_hash" in guide.content[0].text
