// Configuration tools (issue 10) through the official TypeScript SDK against `hamcp --demo` over
// stdio and Streamable HTTP: the SDK checks every structuredContent (errors included) against the
// tool's outputSchema. Get by alias through an ha-mcp name, create, patch with config_hash, a
// stale hash refused with nothing written, an invalid config refused naming the path, a patch
// that does not apply, remove + restore from the journal, a run and its trace.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectHttp, connectStdio, startHttpServer, stopProcess, tempDir } from './helpers.mjs';

const call = (client, name, args = {}) => client.callTool({ name, arguments: args });
const errorOf = (r) => r.structuredContent?.error ?? JSON.parse(r.content[0].text).error;

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

async function configRoundTrip(client) {
  const { tools } = await client.listTools();
  const names = tools.map((t) => t.name);
  for (const n of ['ha_config_get', 'ha_config_set', 'ha_config_remove', 'ha_get_automation_traces'])
    assert.ok(names.includes(n), `${n} missing`);
  for (const alias of ['ha_config_get_automation', 'ha_config_set_script', 'ha_config_remove_scene'])
    assert.ok(!names.includes(alias), `${alias} listed`);

  const got = await ok(client, 'ha_config_get_automation', { identifier: 'Hallway light on motion' });
  assert.equal(got.entity_id, 'automation.hallway_light_on_motion');
  const created = await ok(client, 'ha_config_set', {
    kind: 'automation',
    config: { alias: 'E2E porch', triggers: [{ trigger: 'sun', event: 'sunset' }], actions: [{ action: 'light.turn_on', target: { entity_id: 'light.porch_light' } }] },
  });
  assert.equal(created.result, 'created');
  assert.equal(created.wait.appeared, true);
  const patched = await ok(client, 'ha_config_set', {
    id: created.entity_id, config_hash: created.config_hash, patch: [{ op: 'replace', path: '/alias', value: 'E2E porch 2' }],
  });
  assert.equal(patched.result, 'updated');
  const stale = await refused(client, 'ha_config_set', {
    id: created.entity_id, config_hash: created.config_hash, patch: [{ op: 'replace', path: '/alias', value: 'lost' }],
  }, 'stale_config_hash');
  assert.equal(stale.written, false);
  assert.equal(stale.current_hash, patched.config_hash);
  const bad = await refused(client, 'ha_config_set', {
    id: created.entity_id, config_hash: patched.config_hash, patch: [{ op: 'add', path: '/actions/-', value: { nope: 1 } }],
  }, 'invalid_config');
  assert.equal(bad.path, '/actions/1');
  const np = await refused(client, 'ha_config_set', {
    id: created.entity_id, config_hash: patched.config_hash, patch: [{ op: 'remove', path: '/conditions/3' }],
  }, 'patch_failed');
  assert.equal(np.op_index, 0);
  const now = await ok(client, 'ha_config_get', { id: created.entity_id });
  assert.equal(now.config_hash, patched.config_hash);

  const removed = await ok(client, 'ha_config_remove', { id: created.entity_id, confirm: true });
  assert.equal(removed.wait.removed, true);
  const restored = await ok(client, 'ha_config_set', { restore: removed.edit_id });
  assert.equal(restored.result, 'restored');
  assert.equal(restored.config_hash, patched.config_hash);

  // HA names the re-created entity after its (patched) alias.
  assert.equal(restored.entity_id, 'automation.e2e_porch_2');
  await ok(client, 'ha_config_set', { id: restored.entity_id, run: 'start' });
  const traces = await ok(client, 'ha_get_automation_traces', { automation_id: restored.entity_id });
  assert.equal(traces.runs.length, 1);
  const run = await ok(client, 'ha_get_automation_traces', { automation_id: restored.entity_id, run_id: traces.runs[0].run_id });
  assert.deepEqual(run.steps.map((s) => s.path), ['trigger', 'action/0']);
  await refused(client, 'ha_config_set_script', { script_id: 'goodnight', python_transform: 'x' }, 'invalid_argument');
}

// Helpers (issue 10, item 5): a storage helper and a flow helper (menu + form) created, updated and
// removed, a flow's field error naming its step, an old-style group set and removed.
async function helperRoundTrip(client) {
  const made = await ok(client, 'ha_config_set_helper', { helper_type: 'counter', name: 'E2E cups', config: { step: 2 } });
  assert.equal(made.entity_id, 'counter.e2e_cups');
  assert.equal(made.wait.appeared, true);
  const tpl = await ok(client, 'ha_config_set_helper', {
    helper_type: 'template', name: 'E2E doubled', menu_choice: 'sensor', config: { state: '{{ 2 * 2 }}' },
  });
  assert.deepEqual(tpl.steps, ['user', 'sensor']);
  assert.deepEqual(tpl.wait.entities, ['sensor.e2e_doubled']);
  const upd = await ok(client, 'ha_config_set_helper', { helper_type: 'template', helper_id: tpl.entry_id, config: { state: '{{ 3 }}' } });
  assert.equal(upd.options.state, '{{ 3 }}');
  const bad = await refused(client, 'ha_config_set_helper', {
    helper_type: 'threshold', name: 'E2E hot', config: { entity_id: 'sensor.kitchen_climate_temperature' },
  }, 'invalid_config');
  assert.equal(bad.step_id, 'user');
  assert.equal(bad.errors.base, 'need_lower_upper');
  const listed = await ok(client, 'ha_config_list_helpers', { helper_type: 'template' });
  assert.equal(listed.items.length, 2);  // the demo home's and this one
  for (const [type, id] of [['counter', made.id], ['template', tpl.entry_id]]) {
    const gone = await ok(client, 'ha_config_set_helper', { helper_type: type, action: 'remove', helper_id: id, confirm: true });
    assert.equal(gone.wait.removed, true);
  }
  const grp = await ok(client, 'ha_config_set_group', { object_id: 'e2e_group', entities: ['light.hallway_light'] });
  assert.equal(grp.result, 'created');
  assert.deepEqual((await ok(client, 'ha_config_list_groups', {})).groups.map((g) => g.entity_id), ['group.e2e_group', 'group.family']);
  assert.equal((await ok(client, 'ha_config_remove_group', { object_id: 'e2e_group', confirm: true })).result, 'removed');
  await refused(client, 'ha_config_remove_group', { object_id: 'e2e_group', confirm: true }, 'group_not_found');
}

describe('config tools over stdio (hamcp --demo)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let conn;
  before(async () => { conn = await connectStdio(HAMCP_BIN, ['--demo'], 'config-e2e-stdio'); });
  after(async () => { await conn?.client.close(); });
  test('get, create, patch, stale hash, invalid, remove, restore, run, trace', () => configRoundTrip(conn.client));
  test('helpers: storage and flow helpers, field error, groups', () => helperRoundTrip(conn.client));
});

describe('config tools over Streamable HTTP (hamcp --demo --http)', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  let server;
  let conn;
  let data;
  before(async () => {
    data = tempDir('hamcp-config-e2e-');
    server = await startHttpServer(HAMCP_BIN, ['--http', '--demo', '--host', '127.0.0.1', '--port', '0', '--data-dir', data.dir]);
    conn = await connectHttp(server.url, { clientName: 'config-e2e-http' });
  });
  after(async () => {
    await conn?.client.close();
    if (server) await stopProcess(server.child);
    data?.remove();
  });
  test('get, create, patch, stale hash, invalid, remove, restore, run, trace', () => configRoundTrip(conn.client));
  test('helpers: storage and flow helpers, field error, groups', () => helperRoundTrip(conn.client));
});
