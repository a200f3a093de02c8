"""Entity visibility (issue 14 item 3) against real Home Assistant: hamcp started with
ENTITIES_DENY naming one light hides it from ha_search, ha_get_state, ha_get_overview and a
rendered template (ids built at run time, also through Jinja's scoping and map/select by a
filter's or test's name), refuses ha_call_service on it with the
entity_hidden error while the light stays as it was, and still serves the other lights."""

from __future__ import annotations

import json
import re
import time

from check_kit import Ctx, McpStdio, expect, wait_until


def named(text: str, entity_id: str) -> bool:
    return re.search(r"(?<![a-z0-9_])" + re.escape(entity_id) + r"(?![a-z0-9_])", text) is not None


def t_hamcp_visibility_deny(c: Ctx):
    lights = sorted(s["entity_id"] for s in c.get("/api/states") if s["entity_id"].startswith("light."))
    expect(len(lights) >= 2, f"the demo should have two lights or more: {lights}")
    hidden, visible = lights[0], lights[1]
    m = McpStdio(c, {"ENTITIES_DENY": hidden})
    try:
        found = m.tool("ha_search", {"query": "light", "limit": 50})
        text = json.dumps(found)
        expect(not named(text, hidden) and named(text, visible), f"ha_search: {text[:600]}")
        r = m.tool("ha_get_state", {"entity_id": hidden}, ok=False)
        expect(r["error"]["code"] == "entity_hidden" and not named(json.dumps(r), hidden), f"ha_get_state: {r}")
        expect(visible in json.dumps(m.tool("ha_get_state", {"entity_id": visible})), "visible light unreadable")
        overview = json.dumps(m.tool("ha_get_overview", {}))
        expect(not named(overview, hidden), f"overview names {hidden}")
        # While a filter hides something, a template may read entities by literal id only: a loop over a
        # domain could render hidden ones, so it is refused before anything reaches HA.
        loop = m.tool("ha_eval_template",
                      {"template": "{{ states.light | map(attribute='entity_id') | join(' ') }}"}, ok=False)
        expect(loop["error"]["code"] == "template_not_allowed" and not named(json.dumps(loop), hidden),
               f"template loop: {loop}")
        tpl = json.dumps(m.tool("ha_eval_template", {"template": "{{ states('" + visible + "') }}"}))
        expect(c.state(visible)["state"] in tpl, f"literal template: {tpl}")
        # Words Jinja never evaluates (a string, a comment, a raw block) are no reason to refuse.
        words = ("{# loop over states.light #}{% raw %}{{ expand(x) }}{% endraw %}"
                 "{{ 'states(' ~ ('" + visible + "' | states) }}")
        tpl = json.dumps(m.tool("ha_eval_template", {"template": words}))
        expect("states(" + c.state(visible)["state"] in tpl and "expand(x)" in tpl, f"words template: {tpl}")
        r = m.tool("ha_eval_template", {"template": "{{ states('" + hidden + "') }}"}, ok=False)
        expect("error" in r, f"a hidden literal id was rendered: {r}")
        # Jinja's scoping (jinja_scope.hpp): a variable named like HA's function, set in every branch of an if,
        # is the template's after it and in a macro defined after it; HA's Jinja renders the template's value.
        on = c.state(visible)["state"] == "on"
        scoped = ("{% if is_state('" + visible + "', 'on') %}{% set states = 'A' %}{% else %}{% set states = 'B' %}"
                  "{% endif %}{% macro m() %}{{ states }}{% endmacro %}{{ states }}{{ m() }}|{{ '" + visible
                  + "' | states }}")
        tpl = json.dumps(m.tool("ha_eval_template", {"template": scoped}))
        expect(("AA|on" if on else "BB|" + c.state(visible)["state"]) in tpl, f"scoped template: {tpl}")
        # Set in one branch only, the name is HA's function after endif when the branch did not run.
        smuggle = ("{% if is_state('" + visible + "', 'nothing') %}{% set states = 1 %}{% endif %}"
                   "{{ states('" + hidden[:3] + "' ~ '" + hidden[3:] + "') }}")
        r = m.tool("ha_eval_template", {"template": smuggle}, ok=False)
        expect(r["error"]["code"] == "template_not_allowed" and "some branches" in r["error"]["message"]
               and not named(json.dumps(r), hidden), f"smuggled through an if: {r}")
        # A macro's defaults, block bodies and macros in a template-level with see the template's variables too...
        frames = ("{% set area_name = 'T' %}{% macro d(n=area_name) %}{{ n }}{% endmacro %}{{ d() }}"
                  "{% block b %}{{ area_name }}{% endblock %}{% with a = 1 %}{% macro w() %}{{ area_name }}"
                  "{% endmacro %}{{ w() }}{% endwith %}|{{ '" + visible + "' | states }}")
        tpl = json.dumps(m.tool("ha_eval_template", {"template": frames}))
        expect("TTT|" + c.state(visible)["state"] in tpl, f"frames template: {tpl}")
        # ...but self.b() renders a block before the template's own `states` exists: HA's function reads the built id.
        via_self = ("{{ self.b() }}{% macro states(e) %}u{% endmacro %}{% block b %}{{ states('" + hidden[:3]
                    + "' ~ '" + hidden[3:] + "') }}{% endblock %}")
        direct = c.post("/api/template", {"template": via_self})
        expect(str(direct).startswith(c.state(hidden)["state"]), f"HA's own render through self: {direct!r}")
        r = m.tool("ha_eval_template", {"template": via_self}, ok=False)
        expect(r["error"]["code"] == "template_not_allowed" and "uses `self`" in r["error"]["message"]
               and not named(json.dumps(r), hidden), f"smuggled through self: {r}")
        # Jinja's map/select apply HA's filters and tests by name: HA itself renders a built id's state so...
        built = "['" + hidden[:3] + "' ~ '" + hidden[3:] + "']"
        direct = c.post("/api/template", {"template": "{{ " + built + " | map('states') | list }}"})
        expect(c.state(hidden)["state"] in str(direct), f"HA's own render of map('states'): {direct!r}")
        # ...and hamcp refuses them before anything reaches HA.
        for by_name in ("map('states')", "select('is_state', 'on')"):
            r = m.tool("ha_eval_template", {"template": "{{ " + built + " | " + by_name + " | list }}"}, ok=False)
            expect(r["error"]["code"] == "template_not_allowed" and "named by its argument" in r["error"]["message"],
                   f"{by_name}: {r}")
        # HA lowercases an id on lookup: states.light.<ID IN CAPITALS> is the hidden light too.
        upper = "{{ states." + hidden.split(".")[0] + "." + hidden.split(".")[1].upper() + ".state }}"
        expect(c.post("/api/template", {"template": upper}) == c.state(hidden)["state"], "HA's own render of " + upper)
        r = m.tool("ha_eval_template", {"template": upper}, ok=False)
        expect(r["error"]["code"] in ("entity_hidden", "template_not_allowed"), f"{upper}: {r}")

        before = c.state(hidden)["state"]
        service = "turn_off" if before == "on" else "turn_on"
        r = m.tool("ha_call_service", {"domain": "light", "service": service, "entity_id": hidden}, ok=False)
        expect(r["error"]["code"] == "entity_hidden" and r["error"]["sent"] is False, f"call_service: {r}")
        # HA lower-cases a service call's entity ids: the visible light in capitals is switched...
        was = c.state(visible)["state"]
        c.post("/api/services/light/" + ("turn_off" if was == "on" else "turn_on"), {"entity_id": visible.upper()})
        expect(wait_until("upper-case id acted on", lambda: c.state(visible)["state"] != was),
               f"HA ignored {visible.upper()}: {c.state(visible)}")
        # ...so the hidden one in capitals (or mixed case) is refused like its own id.
        for spelled in (hidden.upper(), hidden.split(".")[0] + "." + hidden.split(".")[1].title()):
            r = m.tool("ha_call_service", {"domain": "light", "service": service, "entity_id": spelled}, ok=False)
            expect(r["error"]["code"] == "entity_hidden" and r["error"]["sent"] is False, f"{spelled}: {r}")
        time.sleep(1.0)  # a leaked call would have landed by now
        expect(c.state(hidden)["state"] == before, f"{hidden} changed: {c.state(hidden)}")
    finally:
        m.close()


TESTS = [("hamcp.visibility_deny", t_hamcp_visibility_deny)]
