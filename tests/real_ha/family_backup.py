"""The backup family (ha_manage_backup) against a real Home Assistant with its backup integration:
backups listed, one created (waiting on HA's backup events, with progress notifications), seen in
the list, its restore previewed (never confirmed: that would restore and restart HA), its deletion
refused while younger than older_than_days, then deleted with confirm; and an edit journal round
trip: an automation created and edited through ha_config_set, the edit listed, viewed, diffed and
restored through scope=edits (the restore itself journaled), a restore point kept, then the automation
removed."""

from __future__ import annotations

import json

from check_kit import Ctx, McpStdio, expect, wait_until


def call_with_progress(m: McpStdio, name: str, args: dict, token: str) -> tuple[dict, list]:
    """tools/call with a progressToken: the result and the progress notifications before it."""
    m.next_id += 1
    req = {"jsonrpc": "2.0", "id": m.next_id, "method": "tools/call",
           "params": {"name": name, "arguments": args, "_meta": {"progressToken": token}}}
    m.p.stdin.write(json.dumps(req) + "\n")
    m.p.stdin.flush()
    progress = []
    while True:
        line = m.p.stdout.readline()
        expect(line, f"hamcp closed stdout during {name}")
        msg = json.loads(line)
        if msg.get("method") == "notifications/progress":
            progress.append(msg["params"])
        elif msg.get("id") == m.next_id:
            expect("error" not in msg, f"{name}: {msg.get('error')}")
            return msg["result"], progress


def t_backups(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect("ha_manage_backup" in names, f"tools/list: {sorted(names)}")
        before = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "list"})
        result, progress = call_with_progress(
            m, "ha_manage_backup", {"scope": "snapshot", "action": "create", "name": "hamcp real-HA check"}, "bk")
        expect(not result.get("isError"), f"create: {json.dumps(result)[:600]}")
        made = result["structuredContent"]
        expect(made["created"] is True and made["backup"]["name"] == "hamcp real-HA check", f"create: {made}")
        expect(made["agents"] == ["backup.local"], f"agents: {made}")
        expect(len(progress) >= 2 and all(p["progressToken"] == "bk" for p in progress), f"progress: {progress}")
        backup_id = made["backup"]["backup_id"]
        print(f"    backup {backup_id}: {made['backup']['size']} in {made.get('took_s')}s, {len(progress)} progress")
        listed = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "list"})
        expect(listed["total"] == before["total"] + 1 and listed["backups"][0]["backup_id"] == backup_id,
               f"list after create: {listed}")
        preview = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "restore", "backup_id": backup_id})
        expect(preview["restored"] is False and "database" in preview["would_replace"], f"restore preview: {preview}")
        keep = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "delete", "backup_id": backup_id})
        expect(keep["deleted"] is False and "older_than_days=0" in keep["note"], f"delete preview: {keep}")
        young = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "delete", "backup_id": backup_id,
                                            "confirm": True}, ok=False)
        expect(young["error"]["code"] == "backup_too_new", f"young backup: {young}")
        gone = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "delete", "backup_id": backup_id,
                                           "confirm": True, "older_than_days": 0})
        expect(gone["deleted"] is True, f"delete: {gone}")
        after = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "list"})
        expect(all(b["backup_id"] != backup_id for b in after["backups"]), f"still listed: {after}")
        unknown = m.tool("ha_manage_backup", {"scope": "snapshot", "action": "delete", "backup_id": "nope0000"},
                         ok=False)
        expect("backup_id" in json.dumps(unknown), f"unknown backup: {unknown}")
    finally:
        m.close()


def t_journal_round_trip(c: Ctx):
    m = McpStdio(c)
    key = None
    try:
        made = m.tool("ha_config_set", {"kind": "automation", "config": {
            "alias": "hamcp journal check", "triggers": [{"trigger": "state", "entity_id": "input_boolean.hamcp_test_flag"}],
            "actions": []}})
        key = made["id"]
        got = m.tool("ha_config_get", {"kind": "automation", "id": key})
        edit = m.tool("ha_config_set", {"kind": "automation", "id": key, "config_hash": got["config_hash"],
                                        "patch": [{"op": "replace", "path": "/alias", "value": "hamcp journal edited"}]})
        listed = m.tool("ha_manage_backup", {"scope": "edits", "action": "list", "domain": "automation"})
        expect(listed["edits"][0]["id"] == edit["edit_id"] and listed["edits"][1]["id"] == made["edit_id"],
               f"edits: {listed}")
        view = m.tool("ha_manage_backup", {"scope": "edits", "action": "view", "backup_id": edit["edit_id"]})
        expect(view["before"]["alias"] == "hamcp journal check" and view["after"]["alias"] == "hamcp journal edited",
               f"view: {view}")
        diff = m.tool("ha_manage_backup", {"scope": "edits", "action": "diff", "backup_id": edit["edit_id"]})
        expect(diff["diff"] == [{"op": "replace", "path": "/alias", "value": "hamcp journal edited"}], f"diff: {diff}")
        restored = m.tool("ha_manage_backup", {"scope": "edits", "action": "restore", "backup_id": edit["edit_id"]})
        expect(restored["result"] == "restored", f"restore: {restored}")
        now = wait_until("the alias restored in HA", lambda: (lambda g: g if g["config"]["alias"] == "hamcp journal check"
                                                              else None)(m.tool("ha_config_get", {"kind": "automation", "id": key})))
        expect(now["config"]["alias"] == "hamcp journal check", f"after restore: {now}")
        again = m.tool("ha_manage_backup", {"scope": "edits", "action": "list", "entity_id": key})
        expect(again["edits"][0]["action"] == "restore", f"the restore is journaled: {again}")
        point = m.tool("ha_manage_backup", {"scope": "edits", "action": "create", "domain": "automation", "entity_id": key})
        seen = m.tool("ha_manage_backup", {"scope": "edits", "action": "view", "backup_id": point["edit_id"]})
        expect(seen["action"] == "snapshot" and seen["before"]["alias"] == "hamcp journal check", f"restore point: {seen}")
    finally:
        if key:
            m.tool("ha_config_remove", {"kind": "automation", "id": key, "confirm": True}, ok=None)
        m.close()


def t_registry_restore(c: Ctx):
    m = McpStdio(c)
    label = None
    try:
        made = m.tool("ha_set_registry", {"kind": "label", "name": "hamcp restore label", "color": "red"})
        label = made["id"]
        edit = m.tool("ha_set_registry", {"kind": "label", "id": label, "name": "hamcp restore renamed",
                                          "icon": "mdi:star"})
        m.tool("ha_manage_backup", {"scope": "edits", "action": "restore", "backup_id": edit["edit_id"]})
        ws = c.ws()
        try:
            labels = ws.call({"type": "config/label_registry/list"})
        finally:
            ws.close()
        now = next(x for x in labels if x["label_id"] == label)
        expect(now["name"] == "hamcp restore label" and now["icon"] is None and now["color"] == "red",
               f"label after restore: {now}")
    finally:
        if label:
            m.tool("ha_remove_registry", {"kind": "label", "id": label, "confirm": True}, ok=None)
        m.close()


TESTS = [
    ("hamcp.backup_create_list_delete", t_backups),
    ("hamcp.backup_journal_round_trip", t_journal_round_trip),
    ("hamcp.backup_journal_registry_restore", t_registry_restore),
]
