"""The integrations family (ha_get_integration, ha_set_integration, ha-mcp's
ha_remove_helpers_integrations) through hamcp's MCP stdio against this real Home Assistant:
config entries listed and searched, the demo entry read with its options form (an options flow
started and aborted), its missing diagnostics reported clearly, a min_max entry added through its
config flow (built in, no network), its options changed through the options flow and restored from the journal, disabled and
enabled, its log level set, a reconfigure refused clearly (min_max has none), and its removal
previewed then confirmed."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect, wait_until


def _numeric_sensors(c: Ctx) -> list[str]:
    out = []
    for s in c.get("/api/states"):
        if s["entity_id"].startswith("sensor."):
            try:
                float(s["state"])
                out.append(s["entity_id"])
            except ValueError:
                pass
    return out


def _entry(c: Ctx, entry_id: str) -> dict | None:
    return next((e for e in c.get("/api/config/config_entries/entry") if e["entry_id"] == entry_id), None)


def t_integrations(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_get_integration", "ha_set_integration"} <= names, f"tools/list: {sorted(names)}")
        listed = m.tool("ha_get_integration", {"limit": 500})
        expect(listed["total"] == len(c.get("/api/config/config_entries/entry")), f"list: {json.dumps(listed)[:600]}")
        demo = m.tool("ha_get_integration", {"domain": "demo"})["entries"]
        expect(demo, f"demo entry: {listed}")
        one = m.tool("ha_get_integration", {"entry_id": demo[0]["entry_id"], "include_schema": True})
        expect(one["domain"] == "demo" and one.get("options_schema") and one.get("options_step"), f"one: {json.dumps(one)[:800]}")
        no_diag = m.tool("ha_get_integration", {"entry_id": demo[0]["entry_id"], "include_diagnostics": True}, ok=False)
        expect(no_diag["error"]["code"] == "diagnostics_not_available", f"diagnostics: {no_diag}")

        sensors = _numeric_sensors(c)[:2]
        expect(len(sensors) == 2, f"numeric sensors: {sensors}")
        missing = m.tool("ha_set_integration", {"domain": "min_max", "config": {"name": "hamcp mm"}}, ok=False)
        expect(missing["error"]["code"] == "invalid_config" and missing["error"].get("data_schema"),
               f"the form comes back: {missing}")
        added = m.tool("ha_set_integration", {"domain": "min_max", "config": {
            "name": "hamcp minmax", "entity_ids": sensors, "type": "max", "round_digits": 1}})
        expect(added["result"] == "created" and added["domain"] == "min_max", f"added: {added}")
        entry_id = added["entry_id"]
        expect(_entry(c, entry_id) is not None, f"entry in HA: {entry_id}")
        read = m.tool("ha_get_integration", {"entry_id": entry_id})
        expect(read["options"]["type"] == "max", f"options: {read}")
        expect(read["entities"], f"the new entry's entity: {read}")

        changed = m.tool("ha_set_integration", {"entry_id": entry_id, "config": {"type": "min"}})
        expect(changed["options_before"]["type"] == "max" and changed["options"]["type"] == "min"
               and changed["edit_id"], f"options flow: {changed}")
        expect(m.tool("ha_get_integration", {"entry_id": entry_id})["options"]["type"] == "min", "options read back")
        undo = m.tool("ha_config_set", {"restore": changed["edit_id"]})
        expect(undo["result"] == "restored", f"restore: {undo}")
        expect(m.tool("ha_get_integration", {"entry_id": entry_id})["options"]["type"] == "max", "options restored")

        off = m.tool("ha_set_integration", {"entry_id": entry_id, "enabled": False})
        expect(off["disabled_by"] == "user", f"disable: {off}")
        wait_until("entry disabled", lambda: (_entry(c, entry_id) or {}).get("disabled_by") == "user")
        m.tool("ha_set_integration", {"entry_id": entry_id, "enabled": True})
        wait_until("entry loaded again", lambda: (_entry(c, entry_id) or {}).get("state") == "loaded")

        level = m.tool("ha_set_integration", {"entry_id": entry_id, "log_level": "DEBUG"})
        expect(level["integration"] == "min_max" and level["after"] == "DEBUG", f"log level: {level}")
        m.tool("ha_set_integration", {"domain": "min_max", "log_level": "DEFAULT"})

        refused = m.tool("ha_set_integration", {"entry_id": entry_id, "reconfigure": True, "config": {}}, ok=False)
        expect(refused["error"]["code"] == "reconfigure_not_supported", f"reconfigure: {refused}")

        look = m.tool("ha_remove_helpers_integrations", {"target": entry_id})
        expect(look["result"] == "preview" and look["would_remove"]["entities"], f"preview: {look}")
        expect(_entry(c, entry_id) is not None, "a preview removed the entry")
        gone = m.tool("ha_remove_helpers_integrations", {"target": entry_id, "confirm": True})
        expect(gone["result"] == "removed" and gone["edit_id"], f"removed: {gone}")
        expect(_entry(c, entry_id) is None, "entry still in HA")
    finally:
        m.close()


def t_read_only(c: Ctx):
    m = McpStdio(c, {"READ_ONLY_MODE": "true"})
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect("ha_get_integration" in names and "ha_set_integration" not in names, f"tools/list: {sorted(names)}")
        demo = m.tool("ha_get_integration", {"domain": "demo"})["entries"][0]
        one = m.tool("ha_get_integration", {"entry_id": demo["entry_id"]})
        expect("options_note" in one and "options" not in one, f"read-only entry (no options flow sent): {one}")
        refused = m.tool("ha_set_integration", {"entry_id": demo["entry_id"], "enabled": False}, ok=False)
        expect(refused["error"]["code"] in ("read_only", "tool_disabled", "tool_not_available"), f"write: {refused}")
        expect(c.get("/api/config/config_entries/entry") and all(
            e["disabled_by"] is None for e in c.get("/api/config/config_entries/entry") if e["entry_id"] == demo["entry_id"]),
            "the demo entry was disabled in read-only mode")
    finally:
        m.close()


def t_subentries(c: Ctx):
    """kitchen_sink's "entity" subentries: the form read, one added through its subentry flow,
    reconfigured (journaled) and restored (kitchen_sink suggests no values, so the values before
    are those hamcp gave it), removed with confirm, and restored from the journal with the values
    hamcp gave it (its sensor shows them)."""
    m = McpStdio(c)
    try:
        sink = m.tool("ha_get_integration", {"domain": "kitchen_sink"})["entries"]
        expect(sink, "kitchen_sink's entry (configuration.yaml sets it up)")
        entry_id = sink[0]["entry_id"]
        forms = m.tool("ha_get_integration", {"entry_id": entry_id, "include_options": False,
                                              "include_subentry_schema": True})
        fields = [f["name"] for f in forms["subentry_forms"]["entity"]["data_schema"]]
        expect(fields == ["name", "state"], f"subentry form: {json.dumps(forms)[:600]}")

        def titles():
            one = m.tool("ha_get_integration", {"entry_id": entry_id, "include_options": False,
                                                "include_subentries": True})
            return {s["title"]: s["subentry_id"] for s in one.get("subentries", [])}

        before = titles()
        made = m.tool("ha_config_set_helper", {"helper_type": "config_subentry", "entry_id": entry_id,
                                               "subentry_type": "entity", "name": "hamcp sub", "config": {"state": 5}})
        expect(made["result"] == "created" and made["subentry"]["title"] == "hamcp sub", f"created: {made}")
        sub_id = made["subentry_id"]
        expect(titles().get("hamcp sub") == sub_id and len(titles()) == len(before) + 1, f"listed: {titles()}")
        missing = m.tool("ha_config_set_helper", {"helper_type": "config_subentry", "entry_id": entry_id,
                                                  "subentry_type": "entity", "name": "no state"}, ok=False)
        expect(missing["error"]["written"] is False and "state" in json.dumps(missing), f"missing field: {missing}")

        changed = m.tool("ha_config_set_helper", {"helper_type": "config_subentry", "entry_id": entry_id,
                                                  "subentry_id": sub_id, "name": "hamcp sub 2", "config": {"state": 7}})
        expect(changed["result"] == "updated" and changed["edit_id"], f"reconfigured: {changed}")
        expect(titles().get("hamcp sub 2") == sub_id, f"renamed: {titles()}")
        # kitchen_sink's reconfigure form suggests nothing: the values before are those hamcp gave it.
        undo = m.tool("ha_config_set", {"restore": changed["edit_id"]})
        expect(undo["result"] == "restored", f"restore with the values hamcp wrote before: {undo}")
        expect(titles().get("hamcp sub") == sub_id, f"the title before is back: {titles()}")
        again = m.tool("ha_config_set_helper", {"helper_type": "config_subentry", "entry_id": entry_id,
                                                "subentry_id": sub_id, "name": "hamcp sub 2", "config": {"state": 7}})
        expect(again["result"] == "updated", f"reconfigured again: {again}")

        gone = m.tool("ha_remove_helpers_integrations", {"target": entry_id, "helper_type": "config_subentry",
                                                         "subentry_id": sub_id, "confirm": True})
        expect(gone["result"] == "subentry_removed", f"removed: {gone}")
        expect(sub_id not in titles().values(), f"still listed: {titles()}")

        # Restored from the journal: kitchen_sink's reconfigure form suggests no values, so the
        # removal kept the values hamcp gave the subentry itself (state 7, its reconfigure);
        # HA makes it again (a new id), and its sensor (kitchen_sink: state = data["state"]) says 7
        # once the entry is set up again.
        back = m.tool("ha_config_set", {"restore": gone["edit_id"]})
        expect(back["result"] == "restored" and back["subentry"]["title"] == "hamcp sub 2", f"restored: {back}")
        new_id = back["subentry_id"]
        expect(titles().get("hamcp sub 2") == new_id and new_id != sub_id, f"listed again: {titles()}")

        def sensor_state():
            ws = c.ws()
            try:
                reg = ws.call({"type": "config/entity_registry/list"})
            finally:
                ws.close()
            ids = [e["entity_id"] for e in reg if e.get("config_subentry_id") == new_id]
            try:
                return ids and c.state(ids[0]).get("state")
            except Exception:  # not in the state machine yet
                return None

        # kitchen_sink adds a subentry's sensor when its entry is set up (no update listener), as in HA's UI
        c.post(f"/api/config/config_entries/entry/{entry_id}/reload")
        state = wait_until("the restored subentry's sensor", sensor_state, timeout=30.0)
        expect(state == "7", f"the restored subentry's data: state {state!r}, 7 before the removal")
        m.tool("ha_remove_helpers_integrations", {"target": entry_id, "helper_type": "config_subentry",
                                                  "subentry_id": new_id, "confirm": True})

        # A subentry hamcp never wrote (made through HA's own flow): no API of HA shows its data
        # and kitchen_sink's reconfigure form suggests none, so the removal says before and after
        # that the journal cannot bring its data back, and the restore is refused as it said.
        flow = c.post("/api/config/config_entries/subentries/flow", {"handler": [entry_id, "entity"]})
        made = c.post(f"/api/config/config_entries/subentries/flow/{flow['flow_id']}", {"name": "ha sub", "state": 3})
        expect(made.get("type") == "create_entry", f"HA's own subentry flow: {made}")
        ha_sub = titles()["ha sub"]
        args = {"target": entry_id, "helper_type": "config_subentry", "subentry_id": ha_sub}
        preview = m.tool("ha_remove_helpers_integrations", args)
        expect("cannot make it again with its data" in json.dumps(preview), f"preview: {preview}")
        removed = m.tool("ha_remove_helpers_integrations", {**args, "confirm": True})
        expect("cannot make it again with its data" in removed.get("restore", ""), f"removed: {removed}")
        refused = m.tool("ha_config_set", {"restore": removed["edit_id"]}, ok=False)
        expect(refused["error"]["code"] == "not_restorable" and "ha sub" not in titles(), f"restore: {refused}")
    finally:
        m.close()


TESTS = [("hamcp.integrations_tools", t_integrations), ("hamcp.integrations_tools.read_only", t_read_only),
         ("hamcp.integrations_tools.subentries", t_subentries)]
