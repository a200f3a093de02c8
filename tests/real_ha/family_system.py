"""The system family (ha_get_system_health, ha_ignore_repair, ha_set_log_level, ha_reload_core,
ha_restart) through hamcp's MCP stdio against this real Home Assistant: health and versions, the
demo integration's repairs (one ignored and restored), the configuration check, a log level set
and read back, reloads of YAML domains and of a config entry, and a restart: HA exits asking to be
restarted (start.sh's hass_loop.sh starts it again), hamcp keeps its session, reports progress
and answers the next call from its re-synced mirror."""

from __future__ import annotations

import json
import time

from check_kit import Ctx, McpStdio, expect, wait_until


def t_health_and_repairs(c: Ctx):
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_get_system_health", "ha_restart", "ha_reload_core", "ha_set_log_level",
                "ha_manage_updates"} <= names, f"tools/list: {sorted(names)}")
        expect("ha_ignore_repair" not in names, "ha_ignore_repair is ha_manage_updates' hidden alias")
        h = m.tool("ha_get_system_health", {"include": "health,repairs,config_check"})
        expect(h["versions"]["core"] == c.version, f"versions: {h['versions']}")
        expect(h["health"]["homeassistant"]["version"] == f"core-{c.version}", f"health: {json.dumps(h['health'])[:400]}")
        expect(h["config_check"]["result"] == "valid", f"config check: {h['config_check']}")
        issues = h["repairs"]["issues"]
        expect(issues and all("severity" in i and "fix" in i for i in issues), f"repairs (demo makes some): {issues}")
        one = issues[0]
        ign = m.tool("ha_ignore_repair", {"domain": one["domain"], "issue_id": one["issue_id"]})
        expect(ign["ignored"] and not ign["ignored_before"], f"ignore: {ign}")
        after = m.tool("ha_get_system_health", {"include": "repairs"})["repairs"]
        expect(all(i["issue_id"] != one["issue_id"] for i in after["issues"]) and after.get("ignored_hidden", 0) >= 1,
               f"ignored issue still listed: {after}")
        back = m.tool("ha_ignore_repair", {"domain": one["domain"], "issue_id": one["issue_id"], "ignore": False})
        expect(back["ignored_before"] and not back["ignored"], f"unignore: {back}")
        # ha-mcp's names: ha_get_system_health with its diagnostics arguments still answers.
        m.tool("ha_get_system_health", {"include": "repairs", "include_dismissed_repairs": True})
        report = m.tool("ha_report_issue", {"title": "real-HA check", "description": "from the real-HA lane"})
        expect(c.version in report["body"] and one["issue_id"] in report["body"] and c.token not in report["body"],
               f"issue report: {report['body'][:600]}")
        err = m.tool("ha_ignore_repair", {"domain": "demo", "issue_id": "hamcp_no_such_issue"}, ok=False)
        expect("issue_id" in json.dumps(err), f"unknown issue: {err}")
    finally:
        m.close()


def t_log_level(c: Ctx):
    m = McpStdio(c)
    try:
        s = m.tool("ha_set_log_level", {"integration": "input_boolean", "level": "DEBUG"})
        expect(s["after"] == "DEBUG", f"set: {s}")
        read = m.tool("ha_get_logs", {"source": "logger", "query": "input_boolean"})
        expect(any(e["integration"] == "input_boolean" and e["level"] == "DEBUG" for e in read["entries"]),
               f"read back: {read}")
        m.tool("ha_set_log_level", {"logger": "homeassistant.components.automation", "level": "INFO"})
        reset = m.tool("ha_set_log_level", {"integration": "input_boolean", "level": "NOTSET"})
        expect(reset["after"] != "DEBUG", f"reset: {reset}")
        bad = m.tool("ha_set_log_level", {"integration": "input_boolean", "level": "LOUD"}, ok=False)
        expect("level" in json.dumps(bad), f"bad level: {bad}")
    finally:
        m.close()


def t_reload(c: Ctx):
    m = McpStdio(c)
    try:
        r = m.tool("ha_reload_core", {"target": "automations, script, scene, input_boolean, core"})
        actions = [x["action"] for x in r["reloaded"]]
        expect(actions == ["automation.reload", "script.reload", "scene.reload", "input_boolean.reload",
                           "homeassistant.reload_core_config"], f"reloaded: {r}")
        entries = c.get("/api/config/config_entries/entry")
        reloadable = [e for e in entries if e.get("supports_unload") and e.get("state") == "loaded"]
        expect(reloadable, f"no reloadable config entry: {[e['domain'] for e in entries]}")
        one = reloadable[0]
        r = m.tool("ha_reload_core", {"entry_id": one["entry_id"]})
        expect(r["reloaded"][0]["reloaded"], f"entry reload: {r}")
        wait_until(f"{one['domain']} loaded again", lambda: any(
            e["entry_id"] == one["entry_id"] and e["state"] == "loaded"
            for e in c.get("/api/config/config_entries/entry")))
        err = m.tool("ha_reload_core", {"target": "hamcp_no_such_domain"}, ok=False)
        expect("target" in json.dumps(err), f"unknown domain: {err}")
    finally:
        m.close()


def call_with_progress(m: McpStdio, name: str, args: dict) -> tuple[dict, list]:
    """tools/call with a progressToken: the result and the progress notifications before it."""
    m.next_id += 1
    req = {"jsonrpc": "2.0", "id": m.next_id, "method": "tools/call",
           "params": {"name": name, "arguments": args, "_meta": {"progressToken": "restart"}}}
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


# Domains the demo's platforms set up (states a test posted over REST do not
# come back after a restart; these must).
PLATFORM_DOMAINS = ("light.", "update.", "cover.", "lock.", "climate.", "fan.")


def entity_ids(c: Ctx) -> set[str]:
    return {s["entity_id"] for s in c.get("/api/states") if s["entity_id"].startswith(PLATFORM_DOMAINS)}


def t_restart(c: Ctx):
    m = McpStdio(c)
    before = entity_ids(c)
    try:
        preview = m.tool("ha_restart", {})
        expect(not preview["restarted"] and preview["config_check"]["result"] == "valid", f"preview: {preview}")
        t0 = time.monotonic()
        result, progress = call_with_progress(m, "ha_restart", {"confirm": True})
        expect(not result.get("isError"), f"restart: {json.dumps(result)[:600]}")
        body = result["structuredContent"]
        expect(body["restarted"] and body["back"] and body["mirror"]["state"] == "synced", f"restart: {body}")
        expect(len(progress) >= 3 and all(p["progressToken"] == "restart" for p in progress),
               f"progress notifications: {progress}")
        print(f"    restart: HA back and mirror re-synced {time.monotonic() - t0:.1f}s after ha_restart")
        # The same hamcp session answers from the re-synced mirror.
        # (HA may still be setting up integrations right after it accepts connections.)
        state = wait_until("the flag through hamcp after the restart", lambda: (lambda s: s if "error" not in s else None)(
            m.tool("ha_get_state", {"entity_id": "input_boolean.hamcp_test_flag"}, ok=None)), timeout=60, interval=1)
        expect("hamcp_test_flag" in json.dumps(state), f"after restart: {json.dumps(state)[:300]}")
        # Every entity is back (the demo platforms set up after HA accepts
        # connections), so the checks that follow see the same home.
        missing: set[str] = set()

        def all_back() -> bool:
            missing.clear()
            missing.update(before - entity_ids(c))
            return not missing

        try:
            wait_until("every entity back after the restart", all_back, timeout=90, interval=1)
        finally:
            print(f"    restart: {len(before)} entities before, missing after: {sorted(missing)[:10]}")
    finally:
        m.close()


TESTS = [
    ("hamcp.system_tools.health_repairs", t_health_and_repairs),
    ("hamcp.system_tools.log_level", t_log_level),
    ("hamcp.system_tools.reload", t_reload),
    ("hamcp.system_tools.restart", t_restart),
]
