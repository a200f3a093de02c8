"""A minimal HTTP/1.1 + MCP client on asyncio streams, for the stress tests.

Standard library only, so the stress lane needs no install and can do what a
well-behaved SDK never does: drop a connection mid-answer, abandon a call,
delete a session while its calls are in flight. Loopback only.
"""
import asyncio
import json

HOST = "127.0.0.1"


class HttpError(Exception):
    pass


async def _read_chunked(reader):
    body = bytearray()
    while True:
        size_line = await reader.readline()
        if not size_line:
            raise HttpError("connection closed inside a chunked body")
        size = int(size_line.split(b";")[0].strip() or b"0", 16)
        if size == 0:
            await reader.readline()  # the blank line after the last chunk (no trailers sent)
            return bytes(body)
        body += await reader.readexactly(size)
        await reader.readexactly(2)


async def read_response(reader):
    """Returns (status, headers dict with lower-case names, body bytes)."""
    status_line = await reader.readline()
    if not status_line:
        raise HttpError("connection closed before a status line")
    parts = status_line.decode("latin-1").split(" ", 2)
    status = int(parts[1])
    headers = {}
    while True:
        line = await reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = await _read_chunked(reader)
    elif "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body = await reader.read()
    return status, headers, body


def encode_request(method, path, port, headers=None, body=b""):
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    for k, v in (headers or {}).items():
        lines.append(f"{k}: {v}")
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def messages_from_body(headers, body):
    """JSON-RPC messages of a POST answer: a JSON body or SSE `data:` lines."""
    if not body:
        return []
    ctype = headers.get("content-type", "")
    if ctype.startswith("text/event-stream"):
        out = []
        for line in body.decode("utf-8", "replace").splitlines():
            if line.startswith("data:"):
                data = line[5:].strip()
                if data:
                    out.append(json.loads(data))
        flat = []
        for m in out:
            flat.extend(m if isinstance(m, list) else [m])
        return flat
    value = json.loads(body)
    return value if isinstance(value, list) else [value]


class Connection:
    """One keep-alive TCP connection to the MCP server."""

    def __init__(self, port):
        self.port = port
        self.reader = None
        self.writer = None

    async def open(self):
        self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
        return self

    def abort(self):
        """Drop the connection without a goodbye (a crashed or impatient client)."""
        if self.writer is not None:
            transport = self.writer.transport
            transport.abort()
            self.writer = None

    async def close(self):
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except (ConnectionError, OSError):
                pass
            self.writer = None

    async def send(self, method, path, headers=None, body=b""):
        self.writer.write(encode_request(method, path, self.port, headers, body))
        await self.writer.drain()

    async def request(self, method, path, headers=None, body=b""):
        await self.send(method, path, headers, body)
        return await read_response(self.reader)


MCP_HEADERS = {
    "Content-Type": "application/json",
    "Accept": "application/json, text/event-stream",
}


def rpc(method, params=None, id_=None):
    m = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        m["params"] = params
    if id_ is not None:
        m["id"] = id_
    return m


def tool_call(id_, name, arguments):
    return rpc("tools/call", {"name": name, "arguments": arguments}, id_)


async def open_session(port, path="/mcp"):
    """initialize + notifications/initialized on a fresh connection; returns (conn, session id)."""
    conn = await Connection(port).open()
    init = rpc("initialize", {"protocolVersion": "2025-11-25", "capabilities": {},
                              "clientInfo": {"name": "hamcp-stress", "version": "1"}}, 0)
    status, headers, body = await conn.request("POST", path, MCP_HEADERS, json.dumps(init).encode())
    if status != 200 or "mcp-session-id" not in headers:
        await conn.close()
        raise HttpError(f"initialize answered {status}: {body[:200]!r}")
    sid = headers["mcp-session-id"]
    note = rpc("notifications/initialized")
    hdrs = dict(MCP_HEADERS, **{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
    status, _, _ = await conn.request("POST", path, hdrs, json.dumps(note).encode())
    if status != 202:
        await conn.close()
        raise HttpError(f"notifications/initialized answered {status}")
    return conn, sid


def session_headers(sid):
    return dict(MCP_HEADERS, **{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"})
