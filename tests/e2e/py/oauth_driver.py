"""A headless OAuth 2.1 client for hamcp's --auth oauth (stdlib only), as a browser-less MCP client
would run it: discovery (RFC 9728 / RFC 8414) -> dynamic registration (RFC 7591) -> /authorize with
PKCE S256 -> Home Assistant's login (its login_flow API, what HA's login page calls) -> hamcp's
callback -> /token -> MCP calls with the access token -> refresh (rotation) -> revocation.
Used by tests/e2e/py/test_oauth.py (simulated HA) and tests/real_ha/family_oauth.py (real HA)."""

from __future__ import annotations

import base64
import hashlib
import http.client
import json
import secrets
import urllib.parse

CLIENT_REDIRECT = "http://127.0.0.1:9/callback"  # never fetched: the client reads the Location


def request(method: str, url: str, *, body: bytes | None = None, headers: dict | None = None):
    """One HTTP request, redirects NOT followed; (status, headers dict lower-case, body text)."""
    u = urllib.parse.urlsplit(url)
    conn = http.client.HTTPConnection(u.hostname, u.port, timeout=30)
    try:
        target = u.path + ("?" + u.query if u.query else "")
        conn.request(method, target or "/", body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read().decode(errors="replace")
    finally:
        conn.close()


def get_json(url: str):
    status, _, text = request("GET", url)
    return status, (json.loads(text) if text else None)


def post_form(url: str, fields: dict):
    status, _, text = request("POST", url, body=urllib.parse.urlencode(fields).encode(),
                              headers={"Content-Type": "application/x-www-form-urlencoded"})
    return status, (json.loads(text) if text.strip() else None)


def post_json(url: str, obj, token: str | None = None, extra: dict | None = None):
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
    if token:
        headers["Authorization"] = "Bearer " + token
    headers.update(extra or {})
    return request("POST", url, body=json.dumps(obj).encode(), headers=headers)


def query_of(location: str) -> dict:
    return dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))


class OAuthLogin:
    """Runs the login against hamcp at `mcp_url` as HA user `username`."""

    def __init__(self, mcp_url: str):
        self.mcp_url = mcp_url
        base = urllib.parse.urlsplit(mcp_url)
        self.origin = f"{base.scheme}://{base.netloc}"

    def discover(self) -> dict:
        status, _, _ = post_json(self.mcp_url, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert status == 401, f"an anonymous MCP request must get 401, got {status}"
        _, hdrs, _ = post_json(self.mcp_url, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
        challenge = hdrs.get("www-authenticate", "")
        assert "resource_metadata=" in challenge, challenge
        prm_url = challenge.split('resource_metadata="')[1].split('"')[0]
        status, prm = get_json(prm_url)
        assert status == 200 and prm["resource"] == self.mcp_url, prm
        issuer = prm["authorization_servers"][0]
        status, meta = get_json(issuer + "/.well-known/oauth-authorization-server")
        assert status == 200 and meta["code_challenge_methods_supported"] == ["S256"], meta
        self.meta = meta
        return meta

    def register(self) -> str:
        status, _, text = post_json(self.meta["registration_endpoint"],
                                    {"redirect_uris": [CLIENT_REDIRECT], "client_name": "hamcp e2e",
                                     "token_endpoint_auth_method": "none"})
        assert status == 201, f"register: {status} {text}"
        self.client_id = json.loads(text)["client_id"]
        return self.client_id

    def authorize(self, username: str, password: str) -> dict:
        """/authorize -> HA's login -> hamcp's callback -> the client's redirect; its query."""
        self.verifier = secrets.token_urlsafe(48)
        challenge = base64.urlsafe_b64encode(hashlib.sha256(self.verifier.encode()).digest()).rstrip(b"=").decode()
        state = secrets.token_urlsafe(8)
        q = urllib.parse.urlencode({"response_type": "code", "client_id": self.client_id,
                                    "redirect_uri": CLIENT_REDIRECT, "code_challenge": challenge,
                                    "code_challenge_method": "S256", "state": state, "resource": self.mcp_url})
        status, hdrs, text = request("GET", self.meta["authorization_endpoint"] + "?" + q)
        assert status == 302, f"authorize: {status} {text}"
        ha_authorize = hdrs["location"]
        ha = query_of(ha_authorize)
        ha_origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(ha_authorize))
        # What HA's login page does: the homeassistant provider's login flow.
        status, _, text = post_json(ha_origin + "/auth/login_flow",
                                    {"client_id": ha["client_id"], "handler": ["homeassistant", None],
                                     "redirect_uri": ha["redirect_uri"]})
        assert status == 200, f"login_flow: {status} {text}"
        flow = json.loads(text)
        status, _, text = post_json(ha_origin + "/auth/login_flow/" + flow["flow_id"],
                                    {"client_id": ha["client_id"], "username": username, "password": password})
        done = json.loads(text)
        assert status == 200 and done["type"] == "create_entry", f"HA login: {status} {text}"
        back = ha["redirect_uri"] + "?" + urllib.parse.urlencode({"code": done["result"], "state": ha["state"]})
        status, hdrs, text = request("GET", back)
        assert status == 302, f"callback: {status} {text}"
        final = query_of(hdrs["location"])
        assert hdrs["location"].startswith(CLIENT_REDIRECT) and final.get("state") == state, hdrs["location"]
        return final

    def token(self, code: str, verifier: str | None = None):
        return post_form(self.meta["token_endpoint"], {
            "grant_type": "authorization_code", "code": code, "redirect_uri": CLIENT_REDIRECT,
            "client_id": self.client_id, "code_verifier": verifier or self.verifier})

    def refresh(self, refresh_token: str):
        return post_form(self.meta["token_endpoint"], {"grant_type": "refresh_token", "refresh_token": refresh_token,
                                                       "client_id": self.client_id})

    def revoke(self, token: str):
        return post_form(self.meta["revocation_endpoint"], {"token": token, "client_id": self.client_id})


def mcp_initialize(mcp_url: str, token: str) -> tuple[int, str | None]:
    status, hdrs, text = post_json(mcp_url, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "oauth-e2e", "version": "1"}}},
        token=token)
    return status, hdrs.get("mcp-session-id")


def mcp_call(mcp_url: str, token: str, session: str, method: str, params: dict) -> tuple[int, dict | None]:
    status, _, text = post_json(mcp_url, {"jsonrpc": "2.0", "id": 2, "method": method, "params": params}, token=token,
                                extra={"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
    if status != 200:
        return status, None
    if text.lstrip().startswith("{"):
        return status, json.loads(text)
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    return status, json.loads(data[-1]) if data else None


def tool_call(mcp_url: str, token: str, session: str, name: str, arguments: dict) -> tuple[int, dict | None]:
    """tools/call; the result's structuredContent (with isError), or None when the HTTP status is not 200."""
    status, answer = mcp_call(mcp_url, token, session, "tools/call", {"name": name, "arguments": arguments})
    if status != 200 or answer is None:
        return status, None
    result = answer.get("result") or {}
    out = dict(result.get("structuredContent") or {})
    out["isError"] = bool(result.get("isError"))
    return status, out


def signed_in(flow: "OAuthLogin", mcp_url: str, username: str, password: str) -> tuple[str, str]:
    """Logs `username` in through the OAuth flow; (access token, MCP session id)."""
    got = flow.authorize(username, password)
    status, tokens = flow.token(got["code"])
    assert status == 200, tokens
    status, session = mcp_initialize(mcp_url, tokens["access_token"])
    assert status == 200 and session, status
    return tokens["access_token"], session
