"""The updates family (ha_manage_updates, ha_manage_hacs / ha_get_hacs_info) through hamcp's MCP
stdio against this real Home Assistant: the demo integration's update entities listed by category
(the list agrees with HA's own states), release notes, a clear error for an unknown entity,
install previewed then run with progress notifications until HA reports the new version, skip and
clear_skipped; and HACS, which is not installed here, answered as "not installed" with how to
install it."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect, wait_until
from family_system import call_with_progress

PROGRESS = "update.demo_update_with_progress"


def t_list_and_notes(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_manage_updates", "ha_manage_hacs"} <= names, f"tools/list: {sorted(names)}")
        states = [s for s in c.get("/api/states") if s["entity_id"].startswith("update.")]
        available = {s["entity_id"] for s in states if s["state"] == "on"}
        r = m.tool("ha_manage_updates", {"action": "list"})
        listed = {i["entity_id"] for items in r["updates"].values() for i in items}
        expect(listed == available, f"listed {sorted(listed)} but HA has available {sorted(available)}")
        expect(r["update_entities"] == len(states) and r["count"] == len(available), f"counts: {r}")
        if not states:  # a Home Assistant without update entities: a correct empty list
            expect(r["updates"] == {}, f"empty list: {r}")
            return
        devices = {i["entity_id"] for i in r["updates"].get("devices", [])}
        expect(PROGRESS in devices, f"{PROGRESS} (device_class firmware) not under devices: {r['updates'].keys()}")
        g = m.tool("ha_manage_updates", {"action": "get", "entity_ids": [PROGRESS]})
        notes = g["updates"][0]["release_notes"]
        expect("markdown" in notes, f"release notes: {notes}")
        err = m.tool("ha_manage_updates", {"action": "get", "entity_ids": ["update.hamcp_no_such_update"]}, ok=False)
        expect("entity_ids" in json.dumps(err) and "update.hamcp_no_such_update" in json.dumps(err), f"unknown: {err}")
    finally:
        m.close()


def t_install_skip(c: Ctx):
    m = McpStdio(c)
    try:
        before = c.state(PROGRESS)["attributes"]
        preview = m.tool("ha_manage_updates", {"action": "install", "entity_ids": [PROGRESS]})
        expect(not preview["installed"] and preview["would_change"][0]["to"] == before["latest_version"], f"preview: {preview}")
        expect(c.state(PROGRESS)["attributes"]["installed_version"] == before["installed_version"], "preview installed")
        result, progress = call_with_progress(m, "ha_manage_updates",
                                              {"action": "install", "entity_ids": [PROGRESS], "confirm": True})
        expect(not result.get("isError"), f"install: {json.dumps(result)[:600]}")
        done = result["structuredContent"]["results"][0]
        expect(done["installed"] and done["installed_version"] == before["latest_version"], f"install: {done}")
        expect(c.state(PROGRESS)["attributes"]["installed_version"] == before["latest_version"], "HA's state")
        expect(len(progress) >= 2, f"progress notifications: {progress}")
        skippable = [s["entity_id"] for s in c.get("/api/states")
                     if s["entity_id"].startswith("update.") and s["state"] == "on"]
        expect(skippable, "no update left to skip")
        one = skippable[0]
        s = m.tool("ha_manage_updates", {"action": "skip", "entity_ids": one})
        expect(s["results"][0]["skipped_version"] == c.state(one)["attributes"]["latest_version"], f"skip: {s}")
        wait_until(f"{one} off after skip", lambda: c.state(one)["state"] == "off")
        m.tool("ha_manage_updates", {"action": "clear_skipped", "entity_ids": one})
        wait_until(f"{one} on after clear_skipped", lambda: c.state(one)["state"] == "on")
    finally:
        m.close()


def t_hacs_not_installed(c: Ctx):
    m = McpStdio(c)
    try:
        for name, args in (("ha_get_hacs_info", {"action": "search", "query": "mushroom"}),
                           ("ha_manage_hacs", {"action": "download", "repository_id": "1", "confirm": True})):
            err = m.tool(name, args, ok=False)
            e = err["error"]
            expect(e["code"] == "hacs_not_installed" and "hacs.xyz" in e["suggestion"], f"{name}: {err}")
    finally:
        m.close()


TESTS = [
    ("hamcp.updates.list_and_notes", t_list_and_notes),
    ("hamcp.updates.install_skip", t_install_skip),
    ("hamcp.updates.hacs_not_installed", t_hacs_not_installed),
]
