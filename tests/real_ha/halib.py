"""Stdlib-only helpers to talk to a real Home Assistant on loopback: REST and a
minimal WebSocket client. Stdlib only so the lane's scripts run on the host's
Python whichever Python (host venv or Debian 13 chroot) runs HA itself."""

from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
import urllib.error
import urllib.parse
import urllib.request


class HttpError(Exception):
    def __init__(self, status: int, body: str):
        super().__init__(f"HTTP {status}: {body[:300]}")
        self.status = status
        self.body = body


def http(method: str, url: str, *, token: str | None = None, json_body=None,
         form: dict | None = None, timeout: float = 30.0):
    """One HTTP request. Returns (status, parsed JSON or text). Raises HttpError on >= 400."""
    headers = {}
    data = None
    if token:
        headers["Authorization"] = f"Bearer {token}"
    if json_body is not None:
        data = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    req = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            body = resp.read().decode("utf-8", "replace")
            status = resp.status
            ctype = resp.headers.get("Content-Type", "")
    except urllib.error.HTTPError as e:
        raise HttpError(e.code, e.read().decode("utf-8", "replace")) from None
    if "json" in ctype and body:
        return status, json.loads(body)
    return status, body


class WsClosed(Exception):
    pass


class WebSocket:
    """Blocking RFC 6455 client, enough for HA's JSON protocol (text frames,
    fragmentation, ping/pong, close). Loopback ws:// only."""

    def __init__(self, url: str, timeout: float = 30.0):
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("ws", "http"):
            raise ValueError(f"only ws:// is supported here, got {url}")
        host, port = u.hostname, u.port or 80
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        path = u.path or "/"
        req = (f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
               f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
        self.sock.sendall(req.encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise WsClosed("connection closed during handshake")
            head += chunk
        head, _, self.buf = head.partition(b"\r\n\r\n")
        status_line = head.split(b"\r\n", 1)[0]
        if b" 101 " not in status_line + b" ":
            raise WsClosed(f"handshake refused: {status_line.decode(errors='replace')}")

    def settimeout(self, t: float) -> None:
        self.sock.settimeout(t)

    def _read(self, n: int) -> bytes:
        while len(self.buf) < n:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise WsClosed("connection closed")
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def _send_frame(self, opcode: int, payload: bytes) -> None:
        header = bytes([0x80 | opcode])
        n = len(payload)
        if n < 126:
            header += bytes([0x80 | n])
        elif n < 65536:
            header += bytes([0x80 | 126]) + struct.pack("!H", n)
        else:
            header += bytes([0x80 | 127]) + struct.pack("!Q", n)
        mask = os.urandom(4)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.sock.sendall(header + mask + masked)

    def send_json(self, obj) -> None:
        self._send_frame(0x1, json.dumps(obj).encode())

    def recv_json(self):
        """Next JSON message (a dict, or a list when HA coalesces)."""
        message = b""
        while True:
            b1, b2 = self._read(2)
            opcode, fin = b1 & 0x0F, b1 & 0x80
            n = b2 & 0x7F
            if n == 126:
                n = struct.unpack("!H", self._read(2))[0]
            elif n == 127:
                n = struct.unpack("!Q", self._read(8))[0]
            mask = self._read(4) if b2 & 0x80 else None
            payload = self._read(n)
            if mask:
                payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
            if opcode == 0x8:
                raise WsClosed("server closed the WebSocket")
            if opcode == 0x9:
                self._send_frame(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            message += payload
            if fin:
                return json.loads(message)

    def close(self) -> None:
        try:
            self._send_frame(0x8, b"")
        except OSError:
            pass
        self.sock.close()


class HaWs:
    """Authenticated HA WebSocket session with request/response by id."""

    def __init__(self, base_url: str, token: str, timeout: float = 30.0):
        ws_url = base_url.replace("http://", "ws://").rstrip("/") + "/api/websocket"
        self.ws = WebSocket(ws_url, timeout)
        hello = self.ws.recv_json()
        if hello.get("type") != "auth_required":
            raise WsClosed(f"unexpected greeting {hello}")
        self.ha_version = hello.get("ha_version")
        self.ws.send_json({"type": "auth", "access_token": token})
        ok = self.ws.recv_json()
        if ok.get("type") != "auth_ok":
            raise WsClosed(f"auth failed: {ok.get('type')} {ok.get('message', '')}")
        self.next_id = 1
        self.pending: list = []  # messages read while waiting for something else

    def send(self, msg: dict) -> int:
        msg = dict(msg)
        msg["id"] = self.next_id
        self.next_id += 1
        self.ws.send_json(msg)
        return msg["id"]

    def _next_message(self, timeout: float):
        self.ws.settimeout(timeout)
        if self.pending:
            return self.pending.pop(0)
        m = self.ws.recv_json()
        if isinstance(m, list):
            self.pending.extend(m[1:])
            return m[0]
        return m

    def call(self, msg: dict, timeout: float = 30.0):
        """Send a command, return its result; raise RuntimeError on an error result."""
        mid = self.send(msg)
        deadline = time.monotonic() + timeout
        held = []
        try:
            while True:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise TimeoutError(f"no result for {msg.get('type')} within {timeout}s")
                m = self._next_message(left)
                if m.get("id") == mid and m.get("type") == "result":
                    if not m.get("success"):
                        err = m.get("error", {})
                        raise RuntimeError(f"{msg.get('type')}: {err.get('code')}: {err.get('message')}")
                    return m.get("result")
                held.append(m)
        finally:
            self.pending = held + self.pending

    def next_event(self, sub_id: int, timeout: float):
        """Next event for subscription sub_id, or None when timeout passes."""
        deadline = time.monotonic() + timeout
        for i, m in enumerate(self.pending):
            if m.get("id") == sub_id and m.get("type") == "event":
                return self.pending.pop(i)["event"]
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return None
            try:
                self.ws.settimeout(left)
                m = self.ws.recv_json()
            except socket.timeout:
                return None
            msgs = m if isinstance(m, list) else [m]
            hit = None
            for x in msgs:
                if hit is None and x.get("id") == sub_id and x.get("type") == "event":
                    hit = x["event"]
                else:
                    self.pending.append(x)
            if hit is not None:
                return hit

    def close(self) -> None:
        self.ws.close()


def read_env_file(path: str) -> dict:
    env = {}
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#") and "=" in line:
                k, v = line.split("=", 1)
                env[k] = v
    return env
