"""Thin helpers over the official MCP Python client (PyPI `mcp`): open a session over stdio or
Streamable HTTP, call a tool and time it, and read entity ids out of any server's search result."""

from __future__ import annotations

import contextlib
import json
import time
from datetime import timedelta
from typing import Any, AsyncIterator

from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamablehttp_client

CALL_TIMEOUT = timedelta(seconds=120)


@contextlib.asynccontextmanager
async def stdio_session(cmd: list[str], env: dict[str, str]) -> AsyncIterator[ClientSession]:
    params = StdioServerParameters(command=cmd[0], args=cmd[1:], env=env)
    with open("/dev/null", "w") as errlog:
        async with stdio_client(params, errlog=errlog) as (read, write):
            async with ClientSession(read, write, read_timeout_seconds=CALL_TIMEOUT) as session:
                await session.initialize()
                yield session


@contextlib.asynccontextmanager
async def http_session(url: str) -> AsyncIterator[ClientSession]:
    async with streamablehttp_client(url, timeout=30, sse_read_timeout=300) as (read, write, _):
        async with ClientSession(read, write, read_timeout_seconds=CALL_TIMEOUT) as session:
            await session.initialize()
            yield session


def result_bytes(result: Any) -> int:
    """Size of the content blocks, serialised: what a client hands the model (when a server also
    sends structuredContent it duplicates the text block, per the spec's compatibility advice)."""
    body = {"content": [c.model_dump(exclude_none=True) for c in result.content]}
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def result_bytes_with_structured(result: Any) -> int:
    """Everything on the wire for the result: content blocks plus structuredContent."""
    body = {"content": [c.model_dump(exclude_none=True) for c in result.content]}
    if result.structuredContent is not None:
        body["structuredContent"] = result.structuredContent
    return len(json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode())


def result_json(result: Any) -> Any:
    """structuredContent if given, else the first text block parsed as JSON (else the raw text)."""
    if result.structuredContent is not None:
        return result.structuredContent
    for c in result.content:
        text = getattr(c, "text", None)
        if text is not None:
            try:
                return json.loads(text)
            except ValueError:
                return text
    return None


def entity_ids_in_order(value: Any) -> list[str]:
    """Every `entity_id` found walking the JSON depth-first in document order, deduplicated.
    Works for any server's result shape (flat list, grouped by domain, nested hits)."""
    seen: list[str] = []

    def walk(v: Any) -> None:
        if isinstance(v, dict):
            eid = v.get("entity_id")
            if isinstance(eid, str) and eid not in seen:
                seen.append(eid)
            for k, child in v.items():
                if k != "entity_id":
                    walk(child)
        elif isinstance(v, list):
            for child in v:
                walk(child)

    walk(value)
    return seen


async def timed_call(session: ClientSession, tool: str, args: dict,
                     timeout: float | None = None) -> tuple[float, bool, Any]:
    """(seconds, ok, result). ok is False for isError results and for exceptions (a timeout is
    the SDK's own read timeout, which leaves the session usable)."""
    t0 = time.perf_counter()
    try:
        limit = timedelta(seconds=timeout) if timeout is not None else None
        result = await session.call_tool(tool, args, read_timeout_seconds=limit)
        return time.perf_counter() - t0, not result.isError, result
    except Exception as e:  # noqa: BLE001 - a failed call is a measurement, not a crash
        return time.perf_counter() - t0, False, e
