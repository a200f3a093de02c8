"""One MCP client of the add-on: the official Python SDK with the add-on's bearer token, reaching it
by the name a user would type (Host: homeassistant.local), lists the tools and reads sun.sun, which
hamcp can only know by having synced through the simulated Supervisor's Core proxy. With a third
argument "read-only" (the add-on's read_only: true, disabled_tools: ha_get_overview) it also checks
that no write tool is listed, ha_call_service is refused as read_only and ha_get_overview is off."""

import asyncio
import json
import sys

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


# Write tools with read actions: listed in read-only mode, their writes refused by the gate.
MIXED = {"ha_manage_app", "ha_manage_radio", "ha_manage_blueprints", "ha_manage_backup", "ha_manage_updates", "ha_manage_hacs", "ha_manage_energy_prefs",
         "ha_manage_pipeline", "ha_manage_calendar", "ha_manage_todo"}


async def read_only_checks(session: ClientSession, tools) -> int:
    names = {t.name for t in tools}
    writes = sorted(t.name for t in tools if not t.annotations.readOnlyHint and t.name not in MIXED)
    refused = await session.call_tool("ha_call_service", {"domain": "light", "service": "turn_on",
                                                          "entity_id": "light.kitchen_ceiling_light"})
    refused_code = json.loads(refused.content[0].text).get("error", {}).get("code")
    off = await session.call_tool("ha_get_overview", {})
    off_code = json.loads(off.content[0].text).get("error", {}).get("code")
    print(f"addon: read-only: write tools listed {writes}; ha_call_service -> {refused_code}; "
          f"ha_get_overview listed {'ha_get_overview' in names} -> {off_code}")
    return 0 if not writes and refused_code == "read_only" and off_code == "tool_disabled" else 1


async def main(url: str, token: str, mode: str = "") -> int:
    headers = {"Authorization": f"Bearer {token}", "Host": "homeassistant.local:8086"}
    async with httpx.AsyncClient(headers=headers, timeout=15) as http:
        async with streamable_http_client(url, http_client=http) as (read, write, _):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = (await session.list_tools()).tools
                result = await session.call_tool("ha_get_state", {"entity_id": "sun.sun"})
                state = json.loads(result.content[0].text)
                print(f"addon: MCP client: {len(tools)} tools; sun.sun is {state.get('state')!r} "
                      f"(error: {result.isError})")
                if result.isError or not state.get("state"):
                    return 1
                return await read_only_checks(session, tools) if mode == "read-only" else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main(*sys.argv[1:4])))
