"""One MCP client of the add-on: the official Python SDK with the add-on's bearer token, reaching it
by the name a user would type (Host: homeassistant.local), lists the tools and reads sun.sun, which
hamcp can only know by having synced through the simulated Supervisor's Core proxy."""

import asyncio
import json
import sys

import httpx
from mcp import ClientSession
from mcp.client.streamable_http import streamable_http_client


async def main(url: str, token: str) -> int:
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
                return 0 if not result.isError and state.get("state") else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main(sys.argv[1], sys.argv[2])))
