// Entity tools (owner: tools helper) through the official TypeScript SDK against `hamcp --demo`
// over stdio and Streamable HTTP: every tool once, errors and bad inputs, 6.x aliases; and the
// seed scenario (ha-mcp #406): 50 concurrent ha_search calls on a 1,000-entity home
// (`hamcp sim --entities 1000`), over HTTP and over stdio — 0 failures, p99 reported.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';

import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';

import { HAMCP_BIN, connectHttp, connectStdio, newClient, startHttpServer, stopProcess, tempDir } from './helpers.mjs';

const FAMILY = [
  'ha_search', 'ha_get_overview', 'ha_get_state', 'ha_call_service', 'ha_bulk_control',
  'ha_get_operation_status', 'ha_list_services', 'ha_call_event', 'ha_get_entity', 'ha_set_entity',
  'ha_remove_entity', 'ha_eval_template', 'ha_get_history', 'ha_get_logs',
];

const call = (client, name, args = {}) => client.callTool({ name, arguments: args });
const errorOf = (r) => r.structuredContent?.error ?? JSON.parse(r.content[0].text).error;

// Every tool once (happy path), in an order that leaves the home usable.
async function everyToolOnce(client) {
  const ok = async (name, args) => {
    const r = await call(client, name, args);
    assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
    assert.ok(r.structuredContent, `${name}: no structuredContent`);
    // compact JSON in the text block, same content
    assert.deepEqual(JSON.parse(r.content[0].text), r.structuredContent);
    assert.ok(!r.content[0].text.includes('\n'), `${name}: pretty-printed`);
    return r.structuredContent;
  };
  const s = await ok('ha_search', { query: 'kitchen ceiling light', limit: 3 });
  assert.equal(s.results[0].entity_id, 'light.kitchen_ceiling_light');
  const o = await ok('ha_get_overview', { detail: 'standard', limit: 2 });
  assert.ok(o.home.entities > 100);
  const st = await ok('ha_get_state', { entity_id: 'light.kitchen_ceiling_light' });
  assert.equal(st.entity_id, 'light.kitchen_ceiling_light');
  const cs = await ok('ha_call_service', { domain: 'light', service: 'turn_off', entity_id: 'light.kitchen_ceiling_light' });
  assert.equal(cs.status, 'confirmed');
  assert.equal(cs.entities[0].state, 'off');
  const bulk = await ok('ha_bulk_control', {
    operations: [
      { entity_id: 'light.kitchen_ceiling_light', action: 'turn_on' },
      { entity_id: 'switch.kuche_wasserkocher', action: 'toggle' },
    ],
  });
  assert.equal(bulk.succeeded, 2);
  const op = await ok('ha_get_operation_status', { operation_id: cs.operation_id });
  assert.equal(op.status, 'confirmed');
  const sv = await ok('ha_list_services', { domain: 'light' });
  assert.ok(sv.services.some((x) => x.service === 'light.turn_on'));
  await ok('ha_call_event', { event_type: 'hamcp_e2e', event_data: { n: 1 } });
  const ge = await ok('ha_get_entity', { entity_id: 'light.kitchen_ceiling_light' });
  assert.equal(ge.area.name, 'Kitchen');
  const se = await ok('ha_set_entity', { entity_id: 'light.porch_light', name: 'Front Porch Lamp', aliases: ['porch'] });
  assert.deepEqual(se.updated, ['name', 'aliases']);
  const re = await ok('ha_remove_entity', { entity_id: 'light.laundry_light', confirm: true });
  assert.equal(re.removed, 'light.laundry_light');
  const tpl = await ok('ha_eval_template', { template: '{{ 20 + 22 }}' });
  assert.equal(tpl.result, '42');
  const hist = await ok('ha_get_history', { entity_id: 'light.kitchen_ceiling_light', start: '1h' });
  assert.ok(hist.entities[0].changes.length >= 1);
  const logs = await ok('ha_get_logs', { source: 'system', limit: 3 });
  assert.ok(logs.entries.length >= 1);
}

async function errorsAndBadInput(client) {
  // unknown entity: nearest matches as suggestions
  let r = await call(client, 'ha_get_state', { entity_id: 'light.kitchn_ceiling' });
  assert.equal(r.isError, true);
  assert.equal(errorOf(r).code, 'entity_not_found');
  assert.equal(errorOf(r).suggestions[0], 'light.kitchen_ceiling_light');
  assert.ok(errorOf(r).suggestion.length > 0);
  // schema violation names the field
  r = await call(client, 'ha_search', { limit: 'ten' });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /arguments\.limit/);
  r = await call(client, 'ha_call_service', { domain: 'light' });
  assert.equal(r.isError, true);
  assert.match(r.content[0].text, /service/);
  // unknown argument names the field and the allowed ones
  r = await call(client, 'ha_get_logs', { sauce: 'system' });
  assert.equal(r.isError, true);
  assert.equal(errorOf(r).code, 'invalid_argument');
  assert.match(errorOf(r).message, /arguments\.sauce/);
  // unknown service with suggestions
  r = await call(client, 'ha_call_service', { domain: 'light', service: 'switch_on', entity_id: 'light.porch_light' });
  assert.equal(errorOf(r).code, 'service_not_found');
  // bulk partial failure is not an error result
  r = await call(client, 'ha_bulk_control', {
    operations: [{ entity_id: 'light.landing_light', action: 'turn_on' }, { entity_id: 'light.nope', action: 'turn_on' }],
  });
  assert.ok(!r.isError, r.content[0].text);
  assert.equal(r.structuredContent.failed, 1);
  // bad time
  r = await call(client, 'ha_get_history', { entity_id: 'light.landing_light', start: 'last tuesday' });
  assert.equal(errorOf(r).code, 'invalid_argument');
  // the session survives all of that
  r = await call(client, 'ha_search', { query: 'landing' });
  assert.ok(!r.isError);
}

async function familyListedAliasesHidden(client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of FAMILY) assert.ok(names.includes(n), `${n} missing from tools/list`);
  for (const alias of ['ha_search_entities', 'ha_rename_entity', 'ha_get_logbook', 'ha_get_statistics', 'ha_get_bulk_status',
    'ha_get_system_version', 'ha_deep_search'])
    assert.ok(!names.includes(alias), `${alias} listed`);
  for (const t of tools.filter((x) => FAMILY.includes(x.name))) {
    assert.ok(t.outputSchema, `${t.name} has no outputSchema`);
    assert.equal(typeof t.annotations.readOnlyHint, 'boolean', t.name);
  }
  const r = await call(client, 'ha_search_entities', { query: 'porch', domain_filter: 'light' });
  assert.ok(!r.isError, r.content[0].text);
  assert.ok(r.structuredContent.results.every((x) => x.entity_id.startsWith('light.')));
}

// `hamcp sim` prints {"url": "..."} on stdout once it listens.
function startSim(args, timeoutMs = 15000) {
  return new Promise((resolve, reject) => {
    const child = spawn(HAMCP_BIN, ['sim', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`sim did not start:\n${out}`)); }, timeoutMs);
    child.stderr.resume();
    child.stdout.on('data', (d) => {
      out += d.toString();
      const m = out.match(/\{"url":"(http:\/\/127\.0\.0\.1:\d+)"\}/);
      if (m) { clearTimeout(timer); resolve({ child, url: m[1] }); }
    });
    child.on('exit', (code) => { clearTimeout(timer); reject(new Error(`sim exited (${code}):\n${out}`)); });
  });
}

function percentile(sorted, p) {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

const QUERIES = ['kitchen light', 'temperature', 'motion', 'door', 'bedroom', 'living room lamp', 'heating', 'window',
  'garage', 'humidity', 'power', 'battery', 'tv', 'speaker', 'vacuum', 'lock', 'blind', 'fan', 'office', 'garden'];

async function fiftyConcurrentSearches(client, label) {
  // Warm-up: the first call may wait for the first mirror sync.
  const warm = await call(client, 'ha_search', { query: 'light' });
  assert.ok(!warm.isError, warm.content[0].text);
  const times = [];
  let failures = 0;
  const t0 = performance.now();
  await Promise.all(Array.from({ length: 50 }, async (_, i) => {
    const start = performance.now();
    try {
      const r = await call(client, 'ha_search', { query: QUERIES[i % QUERIES.length], limit: 10 });
      if (r.isError || !Array.isArray(r.structuredContent?.results) || r.structuredContent.results.length === 0) failures += 1;
    } catch {
      failures += 1;
    }
    times.push(performance.now() - start);
  }));
  const wall = performance.now() - t0;
  times.sort((a, b) => a - b);
  console.log(`seed[${label}]: 50 concurrent ha_search on 1,000 entities: ${failures} failures, ` +
    `p50 ${percentile(times, 50).toFixed(1)} ms, p99 ${percentile(times, 99).toFixed(1)} ms, wall ${wall.toFixed(1)} ms`);
  assert.equal(failures, 0);
  // still serving afterwards, same session
  const after = await call(client, 'ha_get_overview', {});
  assert.ok(!after.isError);
  assert.ok(after.structuredContent.home.entities >= 1000);
}

describe('entity tools over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo'], 'tools-e2e-stdio'); });
  after(async () => { await conn?.client.close(); });
  test('family listed with schemas; aliases hidden but callable', () => familyListedAliasesHidden(conn.client));
  test('every tool once', () => everyToolOnce(conn.client));
  test('errors and bad input', () => errorsAndBadInput(conn.client));
});

describe('entity tools over Streamable HTTP (hamcp --demo --http)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let server;
  let conn;
  let data;
  before(async () => {
    data = tempDir('hamcp-tools-e2e-');
    server = await startHttpServer(HAMCP_BIN, ['--http', '--demo', '--host', '127.0.0.1', '--port', '0', '--data-dir', data.dir]);
    conn = await connectHttp(server.url, { clientName: 'tools-e2e-http' });
  });
  after(async () => {
    await conn?.client.close();
    if (server) await stopProcess(server.child);
    data?.remove();
  });
  test('family listed with schemas; aliases hidden but callable', () => familyListedAliasesHidden(conn.client));
  test('every tool once', () => everyToolOnce(conn.client));
  test('errors and bad input', () => errorsAndBadInput(conn.client));
});

describe('seed scenario: 50 concurrent ha_search on a 1,000-entity home', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let sim;
  const env = () => ({ ...process.env, HOMEASSISTANT_URL: sim.url, HOMEASSISTANT_TOKEN: 'seed-token' });
  before(async () => {
    sim = await startSim(['--entities', '1000', '--port', '0', '--token', 'seed-token']);
  });
  after(async () => { if (sim) await stopProcess(sim.child); });

  test('over Streamable HTTP', async () => {
    const data = tempDir('hamcp-seed-');
    const saved = { ...process.env };
    Object.assign(process.env, env());
    let server;
    let conn;
    try {
      server = await startHttpServer(HAMCP_BIN, ['--http', '--host', '127.0.0.1', '--port', '0', '--data-dir', data.dir]);
      conn = await connectHttp(server.url, { clientName: 'seed-http' });
      await fiftyConcurrentSearches(conn.client, 'http');
    } finally {
      process.env = saved;
      await conn?.client.close();
      if (server) await stopProcess(server.child);
      data.remove();
    }
  });

  test('over stdio', async () => {
    // The SDK passes only a minimal environment to the child: hand HA's address over explicitly.
    const client = newClient('seed-stdio');
    const transport = new StdioClientTransport({ command: HAMCP_BIN, args: [], env: env(), stderr: 'ignore' });
    try {
      await client.connect(transport);
      await fiftyConcurrentSearches(client, 'stdio');
    } finally {
      await client.close();
    }
  });
});
