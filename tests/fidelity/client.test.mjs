// Fidelity: HA's official JS client against `hamcp sim`.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { startSim, rest, fault, connect, until, sleep, subscribeEntities, callService, getStates, getConfig,
  getServices, getUser, ERR_INVALID_AUTH } from "./sim.mjs";

let sim;
before(async () => { sim = await startSim(); });
after(async () => { await sim?.stop(); });

// The client's entity view must equal REST /api/states exactly (state,
// attributes, context id, timestamps to the millisecond the client keeps).
function assertSameStates(clientEntities, restStates) {
  const restById = Object.fromEntries(restStates.map((s) => [s.entity_id, s]));
  assert.deepEqual(Object.keys(clientEntities).sort(), Object.keys(restById).sort(), "entity ids differ");
  for (const [id, c] of Object.entries(clientEntities)) {
    const r = restById[id];
    assert.equal(c.state, r.state, `${id} state`);
    assert.deepEqual(c.attributes, r.attributes, `${id} attributes`);
    assert.equal(c.context.id, r.context.id, `${id} context`);
    assert.ok(Math.abs(Date.parse(c.last_changed) - Date.parse(r.last_changed)) <= 1, `${id} last_changed`);
    assert.ok(Math.abs(Date.parse(c.last_updated) - Date.parse(r.last_updated)) <= 1, `${id} last_updated`);
  }
}

test("auth: a good token connects, a bad one is rejected", async () => {
  const conn = await connect(sim);
  assert.match(conn.haVersion, /^\d{4}\.\d+/);
  conn.close();
  await assert.rejects(connect(sim, "wrong-token"), (err) => err === ERR_INVALID_AUTH);
});

test("getStates, getConfig, getServices, getUser", async () => {
  const conn = await connect(sim);
  try {
    const states = await getStates(conn);
    const restStates = (await rest(sim, "GET", "/api/states")).json;
    assert.equal(states.length, restStates.length);
    assert.ok(states.length > 100);
    const config = await getConfig(conn);
    assert.equal(typeof config.location_name, "string");
    assert.equal(config.state, "RUNNING");
    assert.ok(config.components.includes("light"));
    const services = await getServices(conn);
    assert.ok(services.light.turn_on.fields.brightness);
    assert.deepEqual(services.light.turn_on.target.entity, [{ domain: ["light"] }]);
    const user = await getUser(conn);
    assert.equal(user.is_admin, true);
  } finally { conn.close(); }
});

test("callService changes state; errors carry HA's codes", async () => {
  const conn = await connect(sim);
  try {
    const lights = (await getStates(conn)).filter((s) => s.entity_id.startsWith("light.") &&
      s.attributes.supported_color_modes?.includes("xy"));
    const id = lights[0].entity_id;
    const result = await callService(conn, "light", "turn_on", { brightness: 77, rgb_color: [0, 0, 255] }, { entity_id: id });
    assert.equal(typeof result.context.id, "string");
    const st = (await rest(sim, "GET", `/api/states/${id}`)).json;
    assert.equal(st.state, "on");
    assert.equal(st.attributes.brightness, 77);
    assert.deepEqual(st.attributes.rgb_color, [0, 0, 255]);
    assert.equal(st.context.id, result.context.id);
    await assert.rejects(callService(conn, "light", "explode", {}), (e) => e.code === "not_found");
    await assert.rejects(callService(conn, "light", "turn_on", { brightness: 999 }, { entity_id: id }),
      (e) => e.code === "invalid_format" && /at most 255/.test(e.message));
    const forecast = await conn.sendMessagePromise({ type: "call_service", domain: "weather", service: "get_forecasts",
      service_data: { type: "daily" }, target: { entity_id: "weather.forecast_home" }, return_response: true });
    assert.ok(forecast.response["weather.forecast_home"].forecast.length > 0);
  } finally { conn.close(); }
});

test("subscribeEntities: the client-applied diffs equal /api/states after changes", async () => {
  const conn = await connect(sim);
  let entities;
  const unsub = subscribeEntities(conn, (e) => { entities = e; });
  try {
    await until(() => entities, "initial entities");
    assertSameStates(entities, (await rest(sim, "GET", "/api/states")).json);
    const all = Object.values(entities);
    const pick = (pred) => all.find(pred)?.entity_id;
    const colorLight = pick((s) => s.entity_id.startsWith("light.") && s.attributes.supported_color_modes?.includes("xy"));
    const cover = pick((s) => s.entity_id.startsWith("cover.") && s.attributes.current_position !== undefined);
    const climate = pick((s) => s.entity_id.startsWith("climate."));
    const number = pick((s) => s.entity_id.startsWith("input_number."));
    const media = pick((s) => s.entity_id.startsWith("media_player.") && s.state === "playing");
    const select = pick((s) => s.entity_id.startsWith("input_select."));
    await callService(conn, "light", "turn_on", { color_temp_kelvin: 2700, brightness_pct: 40 }, { entity_id: colorLight });
    await callService(conn, "light", "turn_on", { rgb_color: [10, 200, 30] }, { entity_id: colorLight });
    await callService(conn, "light", "turn_off", {}, { entity_id: colorLight });
    await callService(conn, "cover", "set_cover_position", { position: 35 }, { entity_id: cover });
    await callService(conn, "climate", "set_temperature", { temperature: 22.5 }, { entity_id: climate });
    await callService(conn, "input_number", "set_value", { value: 18 }, { entity_id: number });
    await callService(conn, "media_player", "volume_set", { volume_level: 0.55 }, { entity_id: media });
    await callService(conn, "media_player", "turn_off", {}, { entity_id: media });  // removes attributes ("-")
    await callService(conn, "input_select", "select_next", {}, { entity_id: select });
    await callService(conn, "light", "turn_on", {}, { area_id: "kitchen" });  // target expansion
    assert.equal((await rest(sim, "POST", "/api/states/sensor.fidelity_probe", { state: "1", attributes: { unit_of_measurement: "W" } })).status, 201);
    assert.equal((await rest(sim, "POST", "/api/states/sensor.fidelity_probe", { state: "2", attributes: {} })).status, 200);
    assert.equal((await rest(sim, "DELETE", "/api/states/sensor.fidelity_probe")).status, 200);
    await rest(sim, "POST", "/api/states/sensor.fidelity_added", { state: "on", attributes: { friendly_name: "Added" } });
    const expected = (await rest(sim, "GET", "/api/states")).json;
    await until(() => entities["sensor.fidelity_added"] && !entities["sensor.fidelity_probe"] &&
      entities[media]?.state === "off", "diffs to arrive");
    assertSameStates(entities, expected);
    assert.equal(entities[colorLight].state, "off");
    assert.equal(entities[colorLight].attributes.brightness, null);
    assert.equal(entities[cover].attributes.current_position, 35);
    assert.equal(entities[media].attributes.volume_level, undefined);
  } finally { unsub(); conn.close(); }
});

test("render_template is a subscription that re-renders on change", async () => {
  const conn = await connect(sim);
  try {
    await rest(sim, "POST", "/api/states/sensor.tpl_probe", { state: "5" });
    const results = [];
    const unsub = await conn.subscribeMessage((ev) => results.push(ev), {
      type: "render_template", template: "{{ states('sensor.tpl_probe') | int * 2 }}" });
    await until(() => results.length >= 1, "first render");
    assert.equal(results[0].result, 10);
    assert.deepEqual(results[0].listeners.entities, ["sensor.tpl_probe"]);
    await rest(sim, "POST", "/api/states/sensor.tpl_probe", { state: "21" });
    await until(() => results.length >= 2, "re-render");
    assert.equal(results[1].result, 42);
    await unsub();
    await assert.rejects(conn.sendMessagePromise({ type: "render_template", template: "{{ nope(1) }}" }),
      (e) => e.code === "template_error");
  } finally { conn.close(); }
});

test("the client reconnects and re-subscribes after the sim drops sockets and restarts", async () => {
  const conn = await connect(sim);
  let entities;
  let disconnects = 0;
  let readies = 0;
  conn.addEventListener("disconnected", () => disconnects++);
  conn.addEventListener("ready", () => readies++);
  const unsub = subscribeEntities(conn, (e) => { entities = e; });
  try {
    await until(() => entities, "initial entities");
    const sw = Object.keys(entities).find((id) => id.startsWith("switch."));
    for (const [i, action] of ["drop_websockets", "restart"].entries()) {
      const target = i % 2 === 0 ? "on" : "off";
      assert.equal((await fault(sim, { action })).status, 200);
      await until(() => disconnects > i && readies > i, `reconnect after ${action}`, 10000);
      // A change made after the reconnect must reach the re-subscribed client.
      const r = await until(async () => {
        const res = await rest(sim, "POST", `/api/services/switch/turn_${target}`, { entity_id: sw });
        return res.status === 200 && res;
      }, "REST after restart");
      assert.equal(r.status, 200);
      await until(() => entities[sw]?.state === target, `subscription after ${action}`);
    }
    assertSameStates(entities, (await rest(sim, "GET", "/api/states")).json);
  } finally { unsub(); conn.close(); }
});

test("revoked token: sockets close and auth fails until restored", async () => {
  const conn = await connect(sim);
  let reconnectError = null;
  conn.addEventListener("reconnect-error", (_c, err) => { reconnectError = err; });
  try {
    await fault(sim, { action: "revoke_token" });
    await until(() => reconnectError === ERR_INVALID_AUTH, "reconnect-error with invalid auth");
    assert.equal((await rest(sim, "GET", "/api/")).status, 401);
    await assert.rejects(connect(sim), (err) => err === ERR_INVALID_AUTH);
  } finally {
    await fault(sim, { action: "restore_token" });
    conn.close();
  }
  const again = await connect(sim);
  again.close();
});

test("REST faults: 5xx and delay", async () => {
  await fault(sim, { action: "rest_failure", status: 503 });
  try {
    const r = await rest(sim, "GET", "/api/states");
    assert.equal(r.status, 503);
  } finally { await fault(sim, { action: "rest_failure", status: 0 }); }
  await fault(sim, { action: "delay", ms: 300 });
  try {
    const t0 = Date.now();
    assert.equal((await rest(sim, "GET", "/api/")).status, 200);
    assert.ok(Date.now() - t0 >= 280, "response was delayed");
  } finally { await fault(sim, { action: "clear" }); }
});

test("huge registry frame arrives whole", async () => {
  await fault(sim, { action: "huge_registry", bytes: 24 * 1024 * 1024 });
  const conn = await connect(sim);
  try {
    const list = await conn.sendMessagePromise({ type: "config/entity_registry/list" });
    // JS drops the ".0" of whole floats, so the re-serialised size is a little smaller than the frame.
    assert.ok(Buffer.byteLength(JSON.stringify(list)) >= 0.97 * 24 * 1024 * 1024, "frame is about 24 MiB");
    assert.ok(list.some((e) => e.entity_id.startsWith("sensor.hamcp_padding_")));
    assert.ok(list.some((e) => e.entity_id.startsWith("light.")), "real entries are still there");
  } finally {
    await fault(sim, { action: "clear" });
    conn.close();
  }
});
