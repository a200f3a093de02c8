// Blueprints and config search (issue 10, items 4 and 6) through the official TypeScript SDK
// against `hamcp --demo` over stdio: the SDK checks every structuredContent (errors included)
// against the tool's outputSchema. List/get with users, import from a loopback HTTP server, save
// with a YAML error naming its line, delete refused while in use, take control through ha-mcp's
// argument, and ha_search finding automations by an entity id inside them.
import assert from 'node:assert/strict';
import http from 'node:http';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

const call = (client, name, args = {}) => client.callTool({ name, arguments: args });
const errorOf = (r) => r.structuredContent?.error ?? JSON.parse(r.content[0].text).error;
const PATH = 'homeassistant/motion_light.yaml';
const NOTIFY = 'blueprint:\n  name: E2E notify\n  domain: automation\n  input:\n    watched: {}\n' +
  'triggers:\n  - trigger: state\n    entity_id: !input watched\nactions:\n  - action: notify.notify\n';

async function ok(client, name, args) {
  const r = await call(client, name, args);
  assert.ok(!r.isError, `${name} failed: ${r.content?.[0]?.text}`);
  return r.structuredContent;
}

async function refused(client, name, args, code) {
  const r = await call(client, name, args);
  assert.equal(r.isError, true, `${name} succeeded: ${r.content?.[0]?.text}`);
  assert.equal(errorOf(r).code, code, r.content[0].text);
  return errorOf(r);
}

describe('blueprints and config search over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  let server;
  let base;
  before(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/bp/e2e_notify.yaml') { res.writeHead(200); res.end(NOTIFY); } else { res.writeHead(404); res.end('no'); }
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${server.address().port}`;
    conn = await connectStdio(HAMCP_BIN, ['--demo'], 'blueprints-e2e-stdio');
  });
  after(async () => {
    await conn?.client.close();
    server?.close();
  });

  test('list, get, import, save error, delete in use, take control', async () => {
    const client = conn.client;
    const list = await ok(client, 'ha_manage_blueprints', { action: 'list' });
    assert.ok(list.blueprints.some((b) => b.path === PATH));
    const got = await ok(client, 'ha_get_blueprint', { path: PATH });
    assert.deepEqual(got.used_by, ['automation.landing_motion_light']);
    const imported = await ok(client, 'ha_import_blueprint', { url: `${base}/bp/e2e_notify.yaml` });
    assert.equal(imported.path, '127.0.0.1/e2e_notify.yaml');
    await refused(client, 'ha_manage_blueprints', { action: 'import', url: `${base}/bp/gone.yaml` }, 'import_failed');
    const bad = await refused(client, 'ha_manage_blueprints', { action: 'save', path: 'x', yaml: 'a: [1\nb: 2\n' }, 'invalid_yaml');
    assert.equal(typeof bad.line, 'number');
    const inUse = await refused(client, 'ha_manage_blueprints', { action: 'delete', path: PATH, confirm: true }, 'blueprint_in_use');
    assert.deepEqual(inUse.used_by, ['automation.landing_motion_light']);
    const took = await ok(client, 'ha_config_set_automation', { identifier: 'automation.landing_motion_light', take_control_of_blueprint: true });
    assert.equal(took.blueprint, PATH);
    await ok(client, 'ha_manage_blueprints', { action: 'delete', path: PATH, confirm: true });
  });

  test('ha_search finds an automation by an entity id inside it', async () => {
    const r = await ok(conn.client, 'ha_search', { query: 'binary_sensor.hallway_motion_motion', config_time_budget: 5 });
    assert.ok(r.config_results.some((c) => c.entity_id === 'automation.hallway_light_on_motion'), JSON.stringify(r.config_results));
  });
});
