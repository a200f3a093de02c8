"""hamcp's OAuth discovery and --auth oauth against the simulated Home Assistant of --demo, headless:
bearer-mode discovery answers (no 401 on the well-known documents), then DCR -> PKCE -> HA login ->
token -> MCP calls -> refresh with rotation (a replayed refresh token is refused) -> revocation."""

from __future__ import annotations

import urllib.parse

from conftest import hamcp_http_demo
from oauth_driver import OAuthLogin, get_json, mcp_call, mcp_initialize, post_json, signed_in, tool_call


def test_bearer_mode_discovery_answers_without_token():
    with hamcp_http_demo("--auth-token", "e2e-secret") as url:
        origin = "{0.scheme}://{0.netloc}".format(urllib.parse.urlsplit(url))
        status, prm = get_json(origin + "/.well-known/oauth-protected-resource/mcp")
        assert status == 200 and prm["resource"] == url and "authorization_servers" not in prm, prm
        status, _ = get_json(origin + "/.well-known/oauth-authorization-server")
        assert status == 404
        status, hdrs, _ = post_json(url, {"jsonrpc": "2.0", "id": 1, "method": "ping"})
        assert status == 401 and 'resource_metadata="' + origin + "/.well-known/oauth-protected-resource/mcp" in \
            hdrs["www-authenticate"], hdrs


def test_oauth_login_through_home_assistant_refresh_and_revoke():
    with hamcp_http_demo("--auth", "oauth") as url:
        flow = OAuthLogin(url)
        flow.discover()
        flow.register()
        got = flow.authorize("guest", "guest-password")
        status, wrong = flow.token(got["code"], verifier="x" * 50)
        assert status == 400 and wrong["error"] == "invalid_grant", wrong  # the code is spent on a wrong verifier
        got = flow.authorize("guest", "guest-password")
        status, tokens = flow.token(got["code"])
        assert status == 200 and tokens["token_type"] == "Bearer", tokens
        status, session = mcp_initialize(url, tokens["access_token"])
        assert status == 200 and session, status
        status, listed = mcp_call(url, tokens["access_token"], session, "tools/list", {})
        assert status == 200 and listed["result"]["tools"], listed

        status, rotated = flow.refresh(tokens["refresh_token"])
        assert status == 200 and rotated["refresh_token"] != tokens["refresh_token"], rotated
        status, _ = mcp_call(url, rotated["access_token"], session, "tools/list", {})
        assert status == 200
        status, replay = flow.refresh(tokens["refresh_token"])
        assert status == 400 and replay["error"] == "invalid_grant", replay
        status, _ = mcp_call(url, rotated["access_token"], session, "tools/list", {})
        assert status == 401, "a replayed refresh token ends its whole grant"

        got = flow.authorize("guest", "guest-password")
        status, fresh = flow.token(got["code"])
        assert status == 200
        status, _ = flow.revoke(fresh["refresh_token"])
        assert status == 200
        status, _ = mcp_initialize(url, fresh["access_token"])
        assert status == 401, "revoked"
        status, bad = flow.refresh(fresh["refresh_token"])
        assert status == 400 and bad["error"] == "invalid_grant"


def test_oauth_tool_calls_act_as_the_signed_in_home_assistant_user():
    """The demo sim's guest is no admin: Home Assistant itself refuses it an entity-registry write, while a
    service call works; the owner (admin) may write; a session is bound to the user who opened it."""
    rename = {"entity_id": "light.kitchen_ceiling_light", "icon": "mdi:lamp"}
    toggle = {"domain": "light", "service": "toggle", "entity_id": "light.kitchen_ceiling_light"}
    with hamcp_http_demo("--auth", "oauth") as url:
        flow = OAuthLogin(url)
        flow.discover()
        flow.register()
        guest, guest_session = signed_in(flow, url, "guest", "guest-password")
        status, refused = tool_call(url, guest, guest_session, "ha_set_entity", rename)
        assert status == 200 and refused["isError"] and refused["error"]["code"] == "ha_not_permitted", refused
        assert refused["error"].get("ha_code") == "unauthorized", refused
        status, toggled = tool_call(url, guest, guest_session, "ha_call_service", toggle)
        assert status == 200 and not toggled["isError"], toggled

        owner, owner_session = signed_in(flow, url, "owner", "owner-password")
        status, done = tool_call(url, owner, owner_session, "ha_set_entity", rename)
        assert status == 200 and not done["isError"], done
        status, _ = tool_call(url, guest, owner_session, "ha_set_entity", rename)
        assert status == 403, "another user's session id must not carry the guest's calls"

        got = flow.authorize("guest", "guest-password")
        status, fresh = flow.token(got["code"])
        assert status == 200
        _, fresh_session = mcp_initialize(url, fresh["access_token"])
        status, _ = flow.revoke(fresh["refresh_token"])
        assert status == 200
        status, _ = tool_call(url, fresh["access_token"], fresh_session, "ha_call_service", toggle)
        assert status == 401, "a revoked grant's calls are refused"
