"""Configuration tools (issue 10) through the official MCP Python SDK against `hamcp --demo` over
stdio and Streamable HTTP, called by ha-mcp 8.7.0's names and argument names: read an automation
with its config_hash, edit it with a JSON Patch, a stale hash refused with nothing written, remove
a script and restore it from the edit journal, activate a scene, python_transform pointed at patch."""

from __future__ import annotations

import json

import pytest

from test_tools import error_of, open_session

pytestmark = [pytest.mark.anyio]


async def test_ha_mcp_names_edit_guard_remove_restore(kind, url):  # noqa: F811
    async with open_session(kind, url) as s:
        r = await s.call_tool("ha_config_get_automation", {"identifier": "automation.lock_front_door_at_night"})
        assert not r.isError, r.content[0].text
        got = r.structuredContent
        assert got["config"]["alias"] == "Lock front door at night"
        patch = [{"op": "replace", "path": "/triggers/0/at", "value": "22:30:00"}]
        r = await s.call_tool("ha_config_set_automation", {"identifier": got["entity_id"], "config_hash": got["config_hash"],
                                                           "patch": patch})
        assert not r.isError, r.content[0].text
        assert r.structuredContent["result"] == "updated"
        new_hash = r.structuredContent["config_hash"]
        r = await s.call_tool("ha_config_set_automation", {"identifier": got["entity_id"], "config_hash": got["config_hash"],
                                                           "patch": [{"op": "replace", "path": "/alias", "value": "lost"}]})
        assert r.isError
        err = error_of(r)
        assert err["code"] == "stale_config_hash" and err["written"] is False and err["current_hash"] == new_hash
        r = await s.call_tool("ha_config_get_automation", {"identifier": got["entity_id"]})
        assert r.structuredContent["config_hash"] == new_hash
        assert r.structuredContent["config"]["triggers"][0]["at"] == "22:30:00"

        r = await s.call_tool("ha_config_remove_script", {"script_id": "leave_home"})  # no confirm: a preview
        assert not r.isError, r.content[0].text
        preview = r.structuredContent
        assert preview["result"] == "preview" and preview["removed"] is False, preview
        assert preview["would_change"]["removes"] == {"kind": "script", "id": "leave_home", "alias": preview["alias"],
                                                      "entity_id": "script.leave_home"}, preview
        r = await s.call_tool("ha_config_get_script", {"script_id": "leave_home"})
        assert not r.isError, "the preview removed the script"
        r = await s.call_tool("ha_config_remove_script", {"script_id": "leave_home", "confirm": True})
        assert not r.isError, r.content[0].text
        edit = r.structuredContent["edit_id"]
        r = await s.call_tool("ha_config_get_script", {"script_id": "leave_home"})
        assert r.isError and error_of(r)["code"] == "config_not_found"
        r = await s.call_tool("ha_config_set", {"restore": edit})
        assert not r.isError, r.content[0].text
        assert r.structuredContent["entity_id"] == "script.leave_home"

        r = await s.call_tool("ha_config_set_scene", {"scene_id": "scene.movie_night", "activate": True})
        assert not r.isError, r.content[0].text
        r = await s.call_tool("ha_config_set_script", {"script_id": "goodnight", "python_transform": "config['x'] = 1"})
        assert r.isError and "patch" in json.dumps(error_of(r))
