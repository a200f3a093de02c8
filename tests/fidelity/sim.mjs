// Starts (or connects to) the simulator and wraps HA's own JS client.
// SIM_URL + SIM_TOKEN: use a running `hamcp sim` (run.sh sets them);
// otherwise spawn $HAMCP_BIN (default build/hamcp) with --port 0.
import { spawn } from "node:child_process";
import { createInterface } from "node:readline";
import { WebSocket } from "ws";
import {
  createConnection, createLongLivedTokenAuth, subscribeEntities, callService, getStates, getConfig, getServices,
  getUser, ERR_INVALID_AUTH,
} from "home-assistant-js-websocket";

globalThis.WebSocket = WebSocket; // Node 20 has no global WebSocket
export { createConnection, createLongLivedTokenAuth, subscribeEntities, callService, getStates, getConfig,
  getServices, getUser, ERR_INVALID_AUTH };

export async function startSim() {
  if (process.env.SIM_URL) {
    return { url: process.env.SIM_URL, token: process.env.SIM_TOKEN ?? "sim-token", stop: async () => {} };
  }
  const bin = process.env.HAMCP_BIN ?? "build/hamcp";
  const token = "fidelity-token";
  const child = spawn(bin, ["sim", "--port", "0", "--token", token], { stdio: ["ignore", "pipe", "inherit"] });
  const line = await new Promise((resolve, reject) => {
    const rl = createInterface({ input: child.stdout });
    rl.once("line", resolve);
    child.once("exit", (code) => reject(new Error(`hamcp sim exited with ${code}`)));
  });
  const { url } = JSON.parse(line);
  return {
    url, token,
    stop: async () => { child.kill("SIGTERM"); await new Promise((r) => child.once("exit", r)); },
  };
}

export async function rest(sim, method, path, body, token = sim.token) {
  const res = await fetch(sim.url + path, {
    method, headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json;
  try { json = JSON.parse(text); } catch { json = undefined; }
  return { status: res.status, text, json };
}

export const fault = (sim, command) => rest(sim, "POST", "/api/hamcp_sim/fault", command);

export async function connect(sim, token = sim.token) {
  return createConnection({ auth: createLongLivedTokenAuth(sim.url, token) });
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Polls `check` (bounded) until it returns truthy.
export async function until(check, what, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
}
