#!/usr/bin/env python3
"""Builds the seed corpora of the HA-side fuzz targets from the simulator's real messages.

    tests/fuzz/make_ha_corpus.py BUILD_DIR/hamcp      writes tests/fuzz/corpus/fuzz_{ha_ws,ha_rest,mirror}/

Starts `hamcp sim` on loopback, records what it answers over the WebSocket API (auth, results,
subscribe_entities events with their compressed "a"/"c"/"r" form, registry lists, errors) and over
REST, trims the lists to a few items (seeds stay small: the fuzzer grows them), and writes them in
the Script format of tests/fuzz/fake_ha.hpp (one "<command type> <frame>" per line) or, for
fuzz_ha_rest, as one selector byte + a raw HTTP response. Only stdlib; no third-party client.
"""
import base64
import json
import os
import socket
import struct
import subprocess
import sys
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
TOKEN = "t"


class Ws:
    """Just enough of a WebSocket client (RFC 6455, text frames, no extensions)."""

    def __init__(self, port):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10)
        key = base64.b64encode(os.urandom(16)).decode()
        self.sock.sendall((f"GET /api/websocket HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n")
                          .encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += self.sock.recv(1)
        if b" 101 " not in head.split(b"\r\n")[0]:
            raise SystemExit(f"websocket upgrade refused: {head!r}")

    def _exact(self, n):
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                raise EOFError
            out += chunk
        return out

    def recv(self):
        b0, b1 = self._exact(2)
        n = b1 & 0x7F
        if n == 126:
            n = struct.unpack(">H", self._exact(2))[0]
        elif n == 127:
            n = struct.unpack(">Q", self._exact(8))[0]
        return self._exact(n).decode()

    def send(self, obj):
        data = json.dumps(obj).encode()
        mask = os.urandom(4)
        n = len(data)
        head = bytes([0x81]) + (bytes([0x80 | n]) if n < 126 else
                                bytes([0xFE]) + struct.pack(">H", n) if n < 65536 else
                                bytes([0xFF]) + struct.pack(">Q", n))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))


def messages(text):
    value = json.loads(text)
    return value if isinstance(value, list) else [value]


def record(port):
    """Returns {command type: [answer messages]} plus the handshake and events."""
    ws = Ws(port)
    hello = ws.recv()
    ws.send({"type": "auth", "access_token": TOKEN})
    auth_ok = ws.recv()
    commands = [
        {"type": "subscribe_entities"},
        {"type": "get_config"}, {"type": "get_services"}, {"type": "get_states"},
        {"type": "config/entity_registry/list"}, {"type": "config/device_registry/list"},
        {"type": "config/area_registry/list"}, {"type": "config/floor_registry/list"},
        {"type": "config/label_registry/list"}, {"type": "config/category_registry/list", "scope": "automation"},
        {"type": "subscribe_events", "event_type": "entity_registry_updated"},
        {"type": "no_such_command"},
        {"type": "call_service", "domain": "light", "service": "toggle",
         "target": {"entity_id": "light.living_room_ceiling_light"}},
    ]
    by_id = {}
    for i, c in enumerate(commands, start=1):
        ws.send(dict(c, id=i))
        by_id[i] = c["type"] if c["type"] != "no_such_command" else "error"
    answers, events = {}, []
    deadline = time.time() + 5
    while time.time() < deadline and (len(answers) < len(commands) or not any("c" in e["event"] for e in events)):
        for m in messages(ws.recv()):
            if m.get("type") == "event":
                events.append(m)
            else:
                answers[by_id[m["id"]]] = m
    return hello, auth_ok, answers, events


def trim_list(items, keep):
    return items[:keep] if isinstance(items, list) else items


def frame(obj):
    return json.dumps(obj, separators=(",", ":"), ensure_ascii=False)


def write(target, name, text):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(text if isinstance(text, bytes) else text.encode())


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    sim = subprocess.Popen([sys.argv[1], "sim", "--port", "0", "--token", TOKEN], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, text=True)
    try:
        port = None
        for _ in range(200):
            line = sim.stdout.readline()
            for word in line.replace("/", " ").replace(":", " ").split():
                if word.isdigit() and 1024 < int(word) < 65536:
                    port = int(word)
            if port:
                break
        if not port:
            raise SystemExit("could not read the simulator's port")
        hello, auth_ok, answers, events = record(port)
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/states", headers={"Authorization": f"Bearer {TOKEN}"})
        rest_states = json.loads(urllib.request.urlopen(req, timeout=10).read())
        req = urllib.request.Request(f"http://127.0.0.1:{port}/api/config", headers={"Authorization": "Bearer wrong"})
        try:
            urllib.request.urlopen(req, timeout=10)
            unauthorized = (401, "401: Unauthorized")
        except urllib.error.HTTPError as e:
            unauthorized = (e.code, e.read().decode(errors="replace"))
    finally:
        sim.terminate()
        sim.wait()

    first = next(e for e in events if "a" in e["event"])
    diff = next(e for e in events if "c" in e["event"])
    entities = dict(list(first["event"]["a"].items())[:4])
    ids = list(entities)

    def result(type_, keep=3):
        m = dict(answers[type_])
        m["result"] = trim_list(m["result"], keep)
        m["id"] = "$ID"
        return frame(m).replace('"$ID"', "$ID")

    def ev(event, sub="$SUB"):
        return frame({"id": sub, "type": "event", "event": event}).replace(f'"{sub}"', sub)

    error = frame(dict(answers["error"], id="$ID")).replace('"$ID"', "$ID")
    registries = [t for t in answers if t.startswith("config/")]
    entity_registry = [e for e in answers["config/entity_registry/list"]["result"] if e["entity_id"] in ids]

    # ---- fuzz_ha_ws: answers to one get_states, events on the live subscribe_entities, auth ----
    ws_seeds = {
        "states": "get_states " + result("get_states"),
        "error_result": "get_states " + error.replace("$ID", "$ID"),
        "pong": 'get_states {"id":$ID,"type":"pong"}',
        "initial_event": "get_states " + ev({"a": entities}),
        "diff_event": "get_states " + ev(diff["event"]),
        "remove_event": "get_states " + ev({"r": ids[:2]}),
        "coalesced": "get_states [" + ev(diff["event"]) + "," + result("get_states", 1) + "]",
        "call_service_result": "get_states " + frame(dict(answers["call_service"], id="$ID")).replace('"$ID"', "$ID"),
        "auth_ok": "auth " + hello + "\nauth " + auth_ok,
        "auth_invalid": "auth " + hello + '\nauth {"type":"auth_invalid","message":"Invalid access token or password"}',
        "auth_unexpected": 'auth {"type":"auth_required"}\nauth {"type":"result","id":1}',
        "malformed": 'get_states {"id":$ID,"type":"result","success":tr',
        "event_unknown_subscription": "get_states " + ev({"a": {}}, sub="987654"),
        # An HA that echoes the access token ($TOKEN) must not get it into hamcp's errors.
        "echo_auth_invalid": "auth " + hello + '\nauth {"type":"auth_invalid","message":"Invalid token $TOKEN"}',
        "echo_hello": 'auth {"type":"hello","access_token":"$TOKEN"}',
        "echo_auth_reply": "auth " + hello + '\nauth {"type":"auth_what","x":"' + "x" * 55 + '$TOKEN"}',
        "echo_error_result": 'get_states {"id":$ID,"type":"result","success":false,'
                             '"error":{"code":"invalid_format","message":"bad token $TOKEN"}}',
    }
    for name, text in ws_seeds.items():
        write("fuzz_ha_ws", name, text + "\n")

    # ---- fuzz_mirror: scripts for a whole sync ----
    sync = [
        "subscribe_entities " + ev({"a": entities}, sub="$ID"),
        "subscribe_entities " + ev(diff["event"], sub="$ID"),
        "get_config " + result("get_config"),
        "get_services " + frame(dict(answers["get_services"], id="$ID",
                                     result=dict(list(answers["get_services"]["result"].items())[:2])))
        .replace('"$ID"', "$ID"),
        "config/entity_registry/list " + frame(dict(answers["config/entity_registry/list"], id="$ID",
                                                    result=entity_registry)).replace('"$ID"', "$ID"),
    ] + [t + " " + result(t) for t in registries if t != "config/entity_registry/list"]
    write("fuzz_mirror", "full_sync", "\n".join(sync) + "\n")
    write("fuzz_mirror", "states_only", sync[0] + "\n")
    write("fuzz_mirror", "diff_and_remove", "\n".join(sync[:2] + ["subscribe_entities " + ev({"r": ids[:1]}, sub="$ID")]) + "\n")
    write("fuzz_mirror", "no_floors", "\n".join(sync + ["config/floor_registry/list " + error]) + "\n")
    write("fuzz_mirror", "entities_unsupported", "subscribe_entities " + error + "\nget_states " + result("get_states") + "\n")
    write("fuzz_mirror", "config_fails", "\n".join(sync[:1]) + "\nget_config " + error.replace("unknown_command", "home_assistant_error") + "\n")
    write("fuzz_mirror", "registry_updated", "\n".join(sync) + "\nsubscribe_events " + ev({"action": "update", "entity_id": ids[0]}, sub="$ID") + "\n")

    # ---- fuzz_ha_rest: selector byte (0 GET get_json, 1 POST post_json, 2 GET + json()) + response ----
    def http(status, reason, body, ctype="application/json", extra=""):
        return (f"HTTP/1.1 {status} {reason}\r\nContent-Type: {ctype}\r\nContent-Length: {len(body.encode())}\r\n"
                f"{extra}\r\n{body}")
    states_body = json.dumps(rest_states[:3])
    rest_seeds = {
        "states": "\x00" + http(200, "OK", states_body),
        "states_keepalive": "\x00" + http(200, "OK", states_body, extra="Connection: keep-alive\r\n"),
        "service_call": "\x01" + http(200, "OK", json.dumps(rest_states[:1])),
        "config_raw": "\x02" + http(200, "OK", json.dumps(answers["get_config"]["result"])),
        "unauthorized": "\x00" + http(unauthorized[0], "Unauthorized", unauthorized[1], "text/plain; charset=utf-8"),
        "not_found": "\x00" + http(404, "Not Found", "404: Not Found", "text/plain; charset=utf-8"),
        "bad_request": "\x01" + http(400, "Bad Request", '{"message":"Invalid JSON specified."}'),
        "server_error": "\x00" + http(500, "Internal Server Error", "<html><body>500 Internal Server Error</body></html>", "text/html"),
        "starting": "\x00" + http(503, "Service Unavailable", "", "text/plain", "Retry-After: 5\r\n"),
        "chunked": "\x00HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                   "5\r\n[1,2]\r\n0\r\n\r\n",
        "no_length_close": "\x02HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n\r\n{\"a\":1}",
        "tls_record": "\x00\x16\x03\x01\x00\x2a\x02\x00\x00\x26\x03\x03" + "\x00" * 32,
        "not_http": "\x00SSH-2.0-OpenSSH_9.2\r\n",
        "truncated": "\x00HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n[1,",
        "text_body": "\x00" + http(200, "OK", "just text", "text/plain"),
        # An HA (or a proxy) that echoes the Authorization header ($TOKEN) in a body.
        "echo_unauthorized": "\x00" + http(401, "Unauthorized", "Bearer $TOKEN rejected", "text/plain"),
        "echo_cut_excerpt": "\x00" + http(500, "Internal Server Error", "x" * 273 + "Bearer $TOKEN", "text/plain"),
        "echo_not_json": "\x02" + http(200, "OK", "{oops Bearer $TOKEN"),
    }
    for name, text in rest_seeds.items():
        write("fuzz_ha_rest", name, text.encode("latin-1", errors="replace") if "\x16" in text else text)
    print("corpus written under", os.path.join(HERE, "corpus"))


if __name__ == "__main__":
    main()
