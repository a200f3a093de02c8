// Wire-level checks with a bare WebSocket (what the JS client hides):
// auth before auth_required, coalesced arrays, id rules, compressed states.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { WebSocket } from "ws";
import { startSim, rest, fault, until } from "./sim.mjs";

let sim;
before(async () => { sim = await startSim(); });
after(async () => { await sim?.stop(); });

function open(sim) {
  const ws = new WebSocket(sim.url.replace(/^http/, "ws") + "/api/websocket");
  const frames = [];
  ws.on("message", (data) => frames.push(data.toString()));
  const opened = new Promise((resolve, reject) => { ws.once("open", resolve); ws.once("error", reject); });
  const closed = new Promise((resolve) => ws.once("close", resolve));
  const messages = () => frames.flatMap((f) => { try { const v = JSON.parse(f); return Array.isArray(v) ? v : [v]; } catch { return []; } });
  return { ws, frames, opened, closed, messages, send: (m) => ws.send(JSON.stringify(m)) };
}

test("auth sent before reading auth_required is accepted", async () => {
  const c = open(sim);
  await c.opened;
  c.send({ type: "auth", access_token: sim.token });
  await until(() => c.messages().some((m) => m.type === "auth_ok"), "auth_ok");
  assert.equal(c.messages()[0].type, "auth_required");
  c.ws.close();
});

test("bad token: auth_invalid then close", async () => {
  const c = open(sim);
  await c.opened;
  c.send({ type: "auth", access_token: "nope" });
  await c.closed;
  const m = c.messages().find((x) => x.type === "auth_invalid");
  assert.equal(m.message, "Invalid access token or password");
});

test("coalesced arrays, id_reuse, unknown_command, float timestamps", async () => {
  const c = open(sim);
  await c.opened;
  c.send({ type: "auth", access_token: sim.token });
  await until(() => c.messages().some((m) => m.type === "auth_ok"), "auth_ok");
  c.send({ id: 1, type: "supported_features", features: { coalesce_messages: 1 } });
  await until(() => c.messages().some((m) => m.id === 1), "supported_features result");
  c.send([{ id: 2, type: "ping" }, { id: 3, type: "subscribe_entities", entity_ids: ["sun.sun"] }, { id: 4, type: "ping" }]);
  await until(() => c.messages().some((m) => m.id === 4), "batch answers");
  assert.ok(c.frames.some((f) => f.startsWith("[")), "at least one coalesced array frame");
  const initial = c.messages().find((m) => m.id === 3 && m.type === "event").event.a["sun.sun"];
  assert.equal(typeof initial.lc, "number");
  assert.ok(initial.lc > 1.7e9 && initial.lc < 4e9, "seconds, not milliseconds");
  c.send({ id: 4, type: "ping" });
  await until(() => c.messages().some((m) => m.id === 4 && m.error), "id_reuse");
  assert.equal(c.messages().find((m) => m.id === 4 && m.error).error.code, "id_reuse");
  c.send({ id: 9, type: "frobnicate" });
  await until(() => c.messages().some((m) => m.id === 9), "unknown_command");
  assert.equal(c.messages().find((m) => m.id === 9).error.code, "unknown_command");
  c.ws.close();
});

test("malformed frame fault reaches authenticated sockets", async () => {
  const c = open(sim);
  await c.opened;
  c.send({ type: "auth", access_token: sim.token });
  await until(() => c.messages().some((m) => m.type === "auth_ok"), "auth_ok");
  await fault(sim, { action: "malformed_frame" });
  await until(() => c.frames.some((f) => { try { JSON.parse(f); return false; } catch { return true; } }), "malformed frame");
  c.ws.close();
});

test("REST service call returns the changed states with the call's context", async () => {
  const r = await rest(sim, "POST", "/api/services/input_boolean/toggle", { entity_id: "input_boolean.guest_mode" });
  assert.equal(r.status, 200);
  assert.equal(r.json.length, 1);
  assert.equal(r.json[0].entity_id, "input_boolean.guest_mode");
  const bad = await rest(sim, "POST", "/api/services/light/turn_on?return_response", {});
  assert.equal(bad.status, 400);
  const unauth = await rest(sim, "GET", "/api/states", undefined, "wrong");
  assert.equal(unauth.status, 401);
});
