// Changing one card of a large dashboard: what the model sends and receives
// (bytes and o200k_base tokens, via gpt-tokenizer) and hamcp's time per call,
// per card (find the card by entity, replace it at its path) against the
// full-config round trip ha-mcp's ha_config_set_dashboard asks for (read the
// whole config, send the whole config back). Runs `hamcp --demo` (stdio, raw
// JSON-RPC) and first creates the dashboard there (not measured).
//
//   HAMCP_BIN=build/hamcp node bench/tools/dashboard_edit_tokens.mjs [--views 40] [--cards 20] [--json]
//
// Sent = the tools/call `arguments` as JSON; received = the result's text
// content (what a client puts into the model's context). Times are wall clock
// from writing the request to reading the response (includes the simulated
// Home Assistant's work on loopback).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const VIEWS = arg('--views', 40);
const CARDS = arg('--cards', 20);
const URL_PATH = 'bench-big';
const bin = process.env.HAMCP_BIN;
if (!bin) {
  console.error('HAMCP_BIN is not set');
  process.exit(2);
}

// Cards of the kinds real dashboards have, each naming its own entity.
function card(v, c) {
  const entity = `light.bench_${v}_${c}`;
  switch (c % 4) {
    case 0:
      return { type: 'tile', entity, name: `Light ${v}.${c}`, features: [{ type: 'light-brightness' }],
        tap_action: { action: 'toggle' }, hold_action: { action: 'more-info' } };
    case 1:
      return { type: 'entities', title: `Room ${v}.${c}`, state_color: true,
        entities: [entity, `sensor.bench_${v}_${c}_temperature`, `sensor.bench_${v}_${c}_humidity`,
          { entity: `switch.bench_${v}_${c}`, name: 'Plug', icon: 'mdi:power-plug' }] };
    case 2:
      return { type: 'markdown', content: `## Notes ${v}.${c}\n{{ states('${entity}') }} since ` +
        `{{ relative_time(states.${entity}.last_changed) }}. `.repeat(3) };
    default:
      return { type: 'vertical-stack', cards: [{ type: 'heading', heading: `Stack ${v}.${c}` },
        { type: 'history-graph', entities: [entity], hours_to_show: 24 }, { type: 'button', entity }] };
  }
}

function bigConfig() {
  const views = [];
  for (let v = 0; v < VIEWS; v++) {
    const cards = [];
    for (let c = 0; c < CARDS; c++) cards.push(card(v, c));
    views.push({ title: `View ${v}`, path: `view-${v}`, type: 'sections', max_columns: 4,
      sections: [{ type: 'grid', cards: cards.slice(0, CARDS / 2) }, { type: 'grid', cards: cards.slice(CARDS / 2) }] });
  }
  return { title: 'Bench', views };
}

const child = spawn(bin, ['--demo'], { stdio: ['pipe', 'pipe', 'ignore'] });
const rl = createInterface({ input: child.stdout, crlfDelay: Infinity });
const waiters = new Map();
rl.on('line', (line) => {
  const msg = JSON.parse(line);
  if (msg.id !== undefined && waiters.has(msg.id)) waiters.get(msg.id)(msg);
});
let nextId = 1;
const request = (method, params) =>
  new Promise((resolve, reject) => {
    const id = nextId++;
    const timer = setTimeout(() => reject(new Error(`${method} timed out`)), 60000);
    waiters.set(id, (m) => { clearTimeout(timer); resolve(m); });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
  });

// One measured tool call: what goes to and comes from the model.
async function measured(name, args) {
  const sent = JSON.stringify(args);
  const t0 = process.hrtime.bigint();
  const r = await request('tools/call', { name, arguments: args });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (!r.result || r.result.isError) throw new Error(`${name}: ${JSON.stringify(r).slice(0, 400)}`);
  const received = r.result.content.map((c) => c.text ?? '').join('');
  return { name, ms, sent_bytes: Buffer.byteLength(sent), received_bytes: Buffer.byteLength(received),
    sent_tokens: encode(sent).length, received_tokens: encode(received).length,
    body: r.result.structuredContent ?? JSON.parse(received) };
}

await request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'dash-bench', version: '1' } });
child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
await new Promise((r) => setTimeout(r, 1500));  // the demo's mirror syncs

const config = bigConfig();
const setup = await measured('ha_set_dashboard', { url_path: URL_PATH, title: 'Bench', config });
const target = `light.bench_${Math.floor(VIEWS / 2)}_${CARDS - 4}`;  // a tile in the second section
const newCard = { type: 'tile', entity: target, name: 'Renamed', color: 'amber' };

// Per card: find it by entity (its path + config_hash), replace it at that path.
const find = await measured('ha_get_dashboard', { url_path: URL_PATH, entity_id: target });
const path = find.body.cards[0].path;
const edit = await measured('ha_set_dashboard', { url_path: URL_PATH, op: 'replace', path, value: newCard,
  config_hash: find.body.config_hash });

// Full config (ha-mcp's way): read all, change one card locally, send all back.
const read = await measured('ha_get_dashboard', { url_path: URL_PATH });
const whole = read.body.config;
const [, v, s, c] = path.match(/views\[(\d+)\]\.sections\[(\d+)\]\.cards\[(\d+)\]/);
whole.views[v].sections[s].cards[c] = { ...newCard, name: 'Renamed again' };
const write = await measured('ha_set_dashboard', { url_path: URL_PATH, config: whole, config_hash: read.body.config_hash });

child.stdin.end();
child.kill('SIGTERM');

const sum = (rows) => rows.reduce((a, r) => ({
  ms: a.ms + r.ms, sent_bytes: a.sent_bytes + r.sent_bytes, received_bytes: a.received_bytes + r.received_bytes,
  sent_tokens: a.sent_tokens + r.sent_tokens, received_tokens: a.received_tokens + r.received_tokens,
}), { ms: 0, sent_bytes: 0, received_bytes: 0, sent_tokens: 0, received_tokens: 0 });
const strip = ({ body, ...rest }) => rest;
const out = {
  dashboard: { views: VIEWS, cards: VIEWS * CARDS, config_bytes: Buffer.byteLength(JSON.stringify(config)),
    config_tokens: encode(JSON.stringify(config)).length, setup_ms: setup.ms },
  per_card: { calls: [strip(find), strip(edit)], total: sum([find, edit]) },
  full_config: { calls: [strip(read), strip(write)], total: sum([read, write]) },
};
if (process.argv.includes('--json')) {
  console.log(JSON.stringify(out, null, 1));
} else {
  console.log(`dashboard: ${VIEWS} views x ${CARDS} cards = ${out.dashboard.cards} cards, ` +
    `${out.dashboard.config_bytes} bytes, ${out.dashboard.config_tokens} tokens`);
  console.log('way          call              ms   sent B  sent tok   recv B  recv tok');
  for (const [way, part] of [['per card', out.per_card], ['full config', out.full_config]]) {
    for (const r of [...part.calls, { name: 'TOTAL', ...part.total }])
      console.log(`${way.padEnd(12)} ${r.name.padEnd(16)} ${r.ms.toFixed(1).padStart(6)} ${String(r.sent_bytes).padStart(8)} ` +
        `${String(r.sent_tokens).padStart(9)} ${String(r.received_bytes).padStart(8)} ${String(r.received_tokens).padStart(9)}`);
  }
}
