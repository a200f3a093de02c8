// End-to-end tool-call latency and throughput of hamcp's entity tools through the official
// TypeScript SDK over Streamable HTTP, with 1, 16 and 64 concurrent clients (one session each),
// against `hamcp sim --entities N`; plus hamcp's RSS (idle after sync, and after the load).
//
//   HAMCP_BIN=build/hamcp node bench/tools/e2e_bench.mjs [--entities 1000] [--calls 400]
// Bounded: `calls` calls per client count (split across clients), 120 s per phase.
import { spawn } from 'node:child_process';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

const bin = process.env.HAMCP_BIN;
if (!bin) throw new Error('HAMCP_BIN is not set');
const arg = (name, def) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const ENTITIES = arg('entities', 1000);
const CALLS = arg('calls', 400);
const QUERIES = ['kitchen light', 'temperature', 'motion', 'door', 'bedroom lamp', 'living room', 'heating', 'window',
  'garage', 'humidity', 'power', 'battery', 'tv', 'speaker', 'vacuum', 'lock', 'blind', 'fan', 'office', 'kitchn lihgt'];

function start(args, env, pattern, timeoutMs = 120000) {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`no start:\n${out}`)); }, timeoutMs);
    const on = (d) => {
      out += d.toString();
      const m = out.match(pattern);
      if (m) { clearTimeout(timer); child.stdout.resume(); child.stderr.resume(); resolve({ child, url: m[1] }); }
    };
    child.stdout.on('data', on);
    child.stderr.on('data', on);
    child.on('exit', (c) => { clearTimeout(timer); reject(new Error(`exited ${c}:\n${out}`)); });
  });
}
const rssMb = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
const pct = (s, p) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];

async function connect(url, name) {
  const client = new Client({ name, version: '1' }, { capabilities: {} });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

async function phase(url, clients, tool, argsFor) {
  const conns = await Promise.all(Array.from({ length: clients }, (_, i) => connect(url, `bench-${i}`)));
  const per = Math.max(1, Math.floor(CALLS / clients));
  const times = [];
  let errors = 0;
  const deadline = Date.now() + 120000;
  const t0 = performance.now();
  await Promise.all(conns.map(async (c, ci) => {
    for (let i = 0; i < per && Date.now() < deadline; i++) {
      const s = performance.now();
      try {
        const r = await c.callTool({ name: tool, arguments: argsFor(ci * per + i) });
        if (r.isError) errors += 1;
      } catch { errors += 1; }
      times.push(performance.now() - s);
    }
  }));
  const wall = (performance.now() - t0) / 1000;
  await Promise.all(conns.map((c) => c.close()));
  times.sort((a, b) => a - b);
  return { clients, calls: times.length, errors, p50: pct(times, 50), p99: pct(times, 99), rps: times.length / wall };
}

const sim = await start(['sim', '--entities', String(ENTITIES), '--port', '0', '--token', 'bench'], {},
  /\{"url":"(http:\/\/127\.0\.0\.1:\d+)"\}/);
const data = mkdtempSync(join(tmpdir(), 'hamcp-bench-'));
const server = await start(['--http', '--host', '127.0.0.1', '--port', '0', '--data-dir', data],
  { HOMEASSISTANT_URL: sim.url, HOMEASSISTANT_TOKEN: 'bench' }, /(http:\/\/127\.0\.0\.1:\d+\/mcp)/);
try {
  // Wait for the first sync (a search that answers with results).
  const warm = await connect(server.url, 'warm');
  for (let i = 0; i < 200; i++) {
    const r = await warm.callTool({ name: 'ha_search', arguments: { query: 'light' } });
    if (!r.isError && r.structuredContent.total > 0) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  await warm.close();
  const idle = rssMb(server.child.pid);
  console.log(`entities ${ENTITIES}, hamcp RSS after sync ${idle.toFixed(1)} MB`);
  console.log('| tool | clients | calls | errors | p50 ms | p99 ms | calls/s |');
  console.log('|---|---|---|---|---|---|---|');
  const row = (tool, r) => console.log(`| ${tool} | ${r.clients} | ${r.calls} | ${r.errors} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.rps.toFixed(0)} |`);
  for (const clients of [1, 16, 64]) {
    row('ha_search', await phase(server.url, clients, 'ha_search', (i) => ({ query: QUERIES[i % QUERIES.length] })));
    row('ha_get_state', await phase(server.url, clients, 'ha_get_state', () => ({ entity_id: 'sun.sun' })));
  }
  console.log(`hamcp RSS after load ${rssMb(server.child.pid).toFixed(1)} MB`);
} finally {
  server.child.kill('SIGTERM');
  sim.child.kill('SIGTERM');
  rmSync(data, { recursive: true, force: true });
}
