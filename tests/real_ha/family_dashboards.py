"""The dashboard family (ha_get_dashboard, ha_set_dashboard with remove=true, which ha_remove_dashboard
is an alias of, ha_manage_dashboard_resources, ha_manage_theme) against a real Home Assistant."""
from check_kit import Ctx, McpStdio, expect, wait_until

URL = "hamcp-dash-test"


def t_hamcp_dashboard_tools(c: Ctx):
    """A storage dashboard created with a config, one card replaced by per-card edit and by patch
    (both guarded by config_hash; a stale hash writes nothing), the card found again by entity and
    read back from HA itself, a view read, the edit restored from the journal, the dashboard
    deleted (preview, then confirm) and restored, then deleted again."""
    m = McpStdio(c)
    try:
        names = {t["name"] for t in m.request("tools/list", {})["tools"]}
        expect({"ha_get_dashboard", "ha_set_dashboard"} <= names and "ha_remove_dashboard" not in names,
               f"tools/list: {sorted(names)}")
        config = {"views": [{"title": "One", "path": "one", "cards": [
            {"type": "entities", "entities": ["input_boolean.hamcp_test_flag"]},
            {"type": "tile", "entity": "input_number.hamcp_test_level"}]}]}
        made = m.tool("ha_set_dashboard", {"url_path": URL, "title": "hamcp dash", "config": config})
        expect(made.get("created") and made["config_hash"], f"create: {made}")
        listed = m.tool("ha_get_dashboard", {})
        expect(any(d["url_path"] == URL for d in listed["dashboards"]), f"list: {listed}")
        found = m.tool("ha_get_dashboard", {"url_path": URL, "entity_id": "input_number.hamcp_test_level"})
        expect(found["total"] == 1 and found["cards"][0]["path"] == "views[0].cards[1]", f"find: {found}")
        card = {"type": "tile", "entity": "input_number.hamcp_test_level", "name": "Level"}
        edit = m.tool("ha_set_dashboard", {"url_path": URL, "op": "replace", "path": "views[0].cards[1]",
                                           "value": card, "config_hash": found["config_hash"]})
        expect(edit["card"] == card and "config" not in edit, f"per-card: {edit}")
        stale = m.tool("ha_set_dashboard", {"url_path": URL, "op": "remove", "path": "views[0].cards[0]",
                                            "config_hash": found["config_hash"]}, ok=False)
        expect(stale["error"]["code"] == "stale_config_hash", f"stale: {stale}")
        patched = m.tool("ha_set_dashboard", {"url_path": URL, "config_hash": edit["config_hash"], "patch": [
            {"op": "add", "path": "/views/0/cards/0/title", "value": "Flags"}]})
        ws = c.ws()
        try:
            raw = ws.call({"type": "lovelace/config", "url_path": URL})
        finally:
            ws.close()
        expect(raw["views"][0]["cards"][1] == card and raw["views"][0]["cards"][0]["title"] == "Flags",
               f"HA's own config: {raw}")
        view = m.tool("ha_get_dashboard", {"url_path": URL, "view_path": "one"})
        expect(view["path"] == "views[0]" and view["config_hash"] == patched["config_hash"], f"view: {view}")
        undo = m.tool("ha_config_set", {"restore": edit["edit_id"]})
        expect(undo["result"] == "restored", f"restore card edit: {undo}")
        preview = m.tool("ha_set_dashboard", {"url_path": URL, "remove": True})
        expect(preview["result"] == "preview" and preview["cards"] == 2, f"preview: {preview}")
        gone = m.tool("ha_remove_dashboard", {"url_path": URL, "confirm": True})
        expect(gone["result"] == "deleted", f"delete: {gone}")
        missing = m.tool("ha_get_dashboard", {"url_path": URL}, ok=False)
        expect(missing["error"]["code"] == "dashboard_not_found", f"after delete: {missing}")
        back = m.tool("ha_config_set", {"restore": gone["edit_id"]})
        expect(back["result"] == "recreated", f"restore delete: {back}")
        again = m.tool("ha_get_dashboard", {"url_path": URL, "entity_id": "input_boolean.hamcp_test_flag"})
        expect(again["total"] == 1, f"restored config: {again}")
        m.tool("ha_remove_dashboard", {"url_path": URL, "confirm": True})
    finally:
        m.close()


def t_hamcp_dashboard_resources_and_themes(c: Ctx):
    """A Lovelace resource added from a URL, changed, removed with confirm (ha-mcp's names too);
    themes listed, the default set, an unknown theme refused by name, the screenshot engine's
    theme actions answered as not available."""
    m = McpStdio(c)
    try:
        made = m.tool("ha_config_set_dashboard_resource", {"url": "/local/hamcp-test-card.js", "resource_type": "module"})
        rid = made["resource"]["id"]
        expect(made["result"] == "created", f"resource: {made}")
        listed = m.tool("ha_manage_dashboard_resources", {"action": "list"})
        expect(any(r["id"] == rid for r in listed["resources"]), f"list: {listed}")
        upd = m.tool("ha_manage_dashboard_resources", {"action": "set", "resource_id": rid, "url": "/local/hamcp-2.js"})
        expect(upd["resource"]["url"] == "/local/hamcp-2.js", f"update: {upd}")
        gone = m.tool("ha_config_delete_dashboard_resource", {"resource_id": rid, "confirm": True})
        expect(gone["result"] == "removed", f"remove: {gone}")
        themes = m.tool("ha_manage_theme", {"action": "list"})
        expect("default_theme" in themes, f"themes: {themes}")
        done = m.tool("ha_manage_theme", {"action": "set", "theme_name": "default"})
        expect(done["default_theme"] == "default", f"set default: {done}")
        bad = m.tool("ha_manage_theme", {"action": "set", "theme_name": "hamcp-no-such-theme"}, ok=False)
        expect(bad["error"]["code"] == "theme_not_found", f"unknown theme: {bad}")
        engine = m.tool("ha_manage_theme", {"action": "get_engine_theme"}, ok=False)
        expect(engine["error"]["code"] == "not_available", f"engine: {engine}")
    finally:
        m.close()


def t_hamcp_dashboard_search(c: Ctx):
    """ha_search finds a dashboard by its title and by an entity a card shows (search_types
    dashboard, ha-mcp's argument), from hamcp's cache: a save (lovelace_updated) is followed, a new
    dashboard (panels_updated) is found, a deleted one leaves."""
    url = "hamcp-search-test"
    m = McpStdio(c)

    def found(query: str) -> list[str]:
        got = m.tool("ha_search", {"query": query, "search_types": ["dashboard"], "config_time_budget": 5})
        return [r["url_path"] for r in got.get("config_results", []) if r.get("kind") == "dashboard"]
    try:
        made = m.tool("ha_set_dashboard", {"url_path": url, "title": "hamcp greenhouse", "config": {"views": [
            {"title": "Plants", "cards": [{"type": "tile", "entity": "input_boolean.hamcp_search_pump"}]}]}})
        wait_until("the new dashboard found by title", lambda: url in found("hamcp greenhouse"))
        wait_until("found by the entity its card shows", lambda: url in found("input_boolean.hamcp_search_pump"))
        m.tool("ha_set_dashboard", {"url_path": url, "config_hash": made["config_hash"], "config": {"views": [
            {"title": "Plants", "cards": [{"type": "gauge", "entity": "sensor.hamcp_search_moisture"}]}]}})
        wait_until("a saved card found", lambda: url in found("sensor.hamcp_search_moisture"))
        m.tool("ha_remove_dashboard", {"url_path": url, "confirm": True})
        wait_until("the deleted dashboard gone", lambda: url not in found("hamcp greenhouse"))
    finally:
        m.tool("ha_remove_dashboard", {"url_path": url, "confirm": True}, ok=None)
        m.close()


TESTS = [
    ("hamcp.dashboard_search", t_hamcp_dashboard_search),
    ("hamcp.dashboard_tools", t_hamcp_dashboard_tools),
    ("hamcp.dashboard_resources_and_themes", t_hamcp_dashboard_resources_and_themes),
]
