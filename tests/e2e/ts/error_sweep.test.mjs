// Every tool's error paths through the official TypeScript SDK 1.x client, which validates
// structuredContent against the tool's outputSchema even when isError is set: a failing tool must
// never make callTool() throw ("Structured content does not match the tool's output schema"),
// and its text must read cleanly (no JSON debris from Home Assistant's bodies).
//
// Paths per tool (driven by tools/list, so a new tool without an entry here fails the sweep):
//   schema violation, unknown argument, its own failures against the demo home, and every tool
//   against a Home Assistant that cannot be reached.
// Then the MCP Inspector CLI's schema-portability lint over hamcp's tools/list: 0 findings.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { HAMCP_BIN, connectStdio } from './helpers.mjs';

// Arguments each tool accepts (used for the unknown-argument and unreachable-HA paths).
const VALID = {
  ha_search: { query: 'kitchen' },
  ha_get_overview: {},
  ha_get_state: { entity_id: 'light.kitchen_ceiling_light' },
  ha_call_service: { domain: 'light', service: 'turn_on', entity_id: 'light.kitchen_ceiling_light' },
  ha_bulk_control: { operations: [{ entity_id: 'light.kitchen_ceiling_light', action: 'on' }] },
  ha_get_operation_status: { operation_id: 'op_00000000000000000000000000000000' },
  ha_list_services: { domain: 'light' },
  ha_call_event: { event_type: 'hamcp_sweep' },
  ha_get_entity: { entity_id: 'light.kitchen_ceiling_light' },
  ha_set_entity: { entity_id: 'light.kitchen_ceiling_light', name: 'Sweep' },
  ha_remove_entity: { entity_id: 'light.kitchen_ceiling_light' },
  ha_eval_template: { template: '{{ 1 }}' },
  ha_get_history: { entity_id: 'light.kitchen_ceiling_light', start: '1h' },
  ha_get_logs: { source: 'logbook' },
  ha_config_get: { kind: 'automation', id: 'automation.leak_alert' },
  ha_config_set: { id: 'automation.leak_alert', enabled: true },
  ha_config_remove: { id: 'automation.leak_alert' },
  ha_get_automation_traces: { automation_id: 'automation.leak_alert' },
  ha_config_list_helpers: { helper_type: 'counter' },
  ha_config_set_helper: { helper_type: 'counter', name: 'Sweep' },
  ha_config_list_groups: {},
  ha_config_set_group: { object_id: 'sweep', entities: ['light.kitchen_ceiling_light'] },
  ha_config_remove_group: { object_id: 'sweep' },
  ha_manage_blueprints: { action: 'list' },
  ha_get_system_health: { include: 'repairs' },
  ha_restart: {},
  ha_reload_core: { target: 'automation' },
  ha_set_log_level: { integration: 'light', level: 'INFO' },
  ha_report_issue: { title: 'sweep' },
  ha_get_settings: {},
  ha_get_audit_log: { limit: 5 },
  ha_get_registry: { kind: 'area' },
  ha_set_registry: { kind: 'label', id: 'Security', color: 'red' },
  ha_remove_registry: { kind: 'label', id: 'Security' },
  ha_get_dashboard: { url_path: 'lovelace' },
  ha_set_dashboard: { url_path: 'dashboard-energy', title: 'Sweep' },
  ha_manage_dashboard_resources: { action: 'list' },
  ha_manage_theme: { action: 'list' },
  ha_manage_calendar: { action: 'get', entity_id: 'calendar.family' },
  ha_manage_todo: { action: 'get', entity_id: 'todo.shopping_list' },
  ha_get_camera_image: { entity_id: 'camera.doorbell_camera' },
  ha_manage_backup: { scope: 'snapshot', action: 'list' },
  ha_manage_updates: { action: 'list', categories: ['devices'] },
  ha_manage_hacs: { action: 'search', query: 'card' },
  ha_get_integration: { domain: 'sim_bridge' },
  ha_set_integration: { domain: 'sim_bridge', menu_choice: 'cloud', config: { account: 'sweep' } },
  ha_manage_energy_prefs: { mode: 'get' },
  ha_manage_pipeline: { action: 'list' },
  ha_get_app: { slug: 'core_mosquitto' },
  ha_manage_app: { action: 'restart', slug: 'core_mosquitto' },
  ha_get_skill_guide: { topic: 'automations' },
  ha_manage_radio: { radio: 'zwave', action: 'network_status' },
};

// Tools that answer without Home Assistant: an issue report is most needed when HA is down
// (its sections say "unavailable" and why); the audit log is hamcp's own file; the skills guide
// is compiled into hamcp.
const WORKS_WITHOUT_HA = new Set(['ha_report_issue', 'ha_get_audit_log', 'ha_get_skill_guide', 'ha_get_settings']);

// The tool's own failures against the demo home: [arguments, expected error code].
const OWN_FAILURES = {
  ha_get_state: [[{ entity_id: 'light.kitchn_ceiling' }, 'entity_not_found']],
  ha_call_service: [
    [{ domain: 'light', service: 'switch_on', entity_id: 'light.porch_light' }, 'service_not_found'],
    [{ domain: 'light', service: 'turn_on', entity_id: 'light.nope_nope' }, 'entity_not_found'],
    [{ service: 'turn_on' }, 'invalid_argument'],
  ],
  ha_bulk_control: [[{ operations: [{ entity_id: 'light.nope_one', action: 'off' }] }, 'all_operations_failed']],
  ha_get_operation_status: [
    [{ operation_id: 'op_1' }, 'operation_not_found'],
    [{}, 'invalid_argument'],
  ],
  ha_get_entity: [[{ entity_id: 'light.nope_nope' }, 'entity_not_found']],
  ha_set_entity: [[{ entity_id: 'light.nope_nope', name: 'x' }, 'entity_not_found']],
  ha_remove_entity: [[{ entity_id: 'light.nope_nope' }, 'entity_not_found']],
  ha_eval_template: [
    [{ template: '{{ states( }}' }, 'template_error'],
    [{ template: '{{ 1 + }}' }, 'template_error'],
  ],
  ha_get_history: [
    [{ entity_id: 'light.kitchen_ceiling_light', start: 'last tuesday' }, 'invalid_argument'],
    [{ entity_id: 'light.nope_nope' }, 'entity_not_found'],
  ],
  ha_get_logs: [[{ source: 'logbook', start: 'someday' }, 'invalid_argument']],
  ha_get_audit_log: [[{ outcome: 'maybe' }, 'invalid_argument']],
  ha_get_skill_guide: [[{ file: 'references/appdaemon.md' }, 'invalid_argument']],
  ha_search: [[{ query: 'x', offset: 1e300 }, null]],  // schema refuses it: plain text error
  ha_get_overview: [[{ detail: 'huge' }, null]],
  ha_list_services: [[{ limit: 0 }, null]],
  ha_call_event: [[{ event_type: 'bad type/with slash' }, null]],
  ha_config_get: [[{ kind: 'automation', id: 'nope nope' }, 'config_not_found']],
  ha_config_set: [
    [{ id: 'automation.leak_alert', config_hash: '0000000000000000', patch: [{ op: 'remove', path: '/alias' }] }, 'stale_config_hash'],
    [{ kind: 'automation', config: { alias: 'x', triggers: [{}], actions: [] } }, 'invalid_config'],
    [{ id: 'automation.leak_alert', python_transform: 'x' }, 'invalid_argument'],
  ],
  ha_config_remove: [[{ id: 'script.nope_nope' }, 'config_not_found']],
  ha_get_automation_traces: [[{ automation_id: 'automation.leak_alert', run_id: 'nope' }, 'trace_not_found']],
  ha_config_list_helpers: [[{ helper_type: 'all', describe: true }, 'invalid_argument']],
  ha_config_set_helper: [
    [{ helper_type: 'counter', helper_id: 'nope_nope', config: { step: 2 } }, 'helper_not_found'],
    [{ helper_type: 'input_select', name: 'Sweep' }, 'invalid_config'],
    [{ helper_type: 'threshold', name: 'Sweep', config: { entity_id: 'sensor.nope' } }, 'invalid_config'],
    [{ helper_type: 'group', name: 'Sweep' }, 'menu_choice_required'],
  ],
  ha_config_list_groups: [[{ limit: 0 }, null]],
  ha_config_set_group: [[{ object_id: 'Not A Slug' }, 'invalid_argument']],
  ha_config_remove_group: [[{ object_id: 'nope_nope' }, 'group_not_found']],
  ha_manage_blueprints: [[{ action: 'get', path: 'nope.yaml' }, 'blueprint_not_found']],
  ha_reload_core: [
    [{ target: 'nope_nope' }, 'invalid_argument'],
    [{}, 'invalid_argument'],
  ],
  ha_set_log_level: [[{ level: 'LOUD' }, 'invalid_argument']],
  ha_get_registry: [[{ kind: 'area', id: 'Atlantis' }, 'area_not_found']],
  ha_set_registry: [
    [{ kind: 'area', id: 'Kitchen' }, 'invalid_argument'],
    [{ kind: 'device', id: 'nope_nope' }, 'device_not_found'],
    [{ kind: 'area', name: 'Sweep', floor_id: 'Moon' }, 'invalid_argument'],
  ],
  ha_remove_registry: [[{ kind: 'zone', id: 'nope_nope', confirm: true }, 'zone_not_found']],
  ha_get_dashboard: [[{ url_path: 'nope-nope' }, 'dashboard_not_found']],
  ha_set_dashboard: [
    [{ url_path: 'dashboard-wall', config: { views: [] } }, 'dashboard_read_only'],
    [{ url_path: 'lovelace', op: 'remove', path: 'views[0]', config_hash: 'stale' }, 'stale_config_hash'],
    [{ url_path: 'lovelace', remove: true, confirm: true }, 'invalid_argument'],
    [{ url_path: 'dashboard-energy', remove: true, title: 'x' }, 'invalid_argument'],
  ],
  ha_manage_dashboard_resources: [[{ action: 'remove', resource_id: 'nope' }, 'resource_not_found']],
  ha_manage_theme: [[{ action: 'set', theme_name: 'nope' }, 'theme_not_found']],
  ha_manage_calendar: [
    [{ action: 'get', entity_id: 'light.kitchen_ceiling_light' }, 'invalid_argument'],
    [{ action: 'set', entity_id: 'calendar.family', summary: 'x', start: '2026-12-05T11:00:00Z', end: '2026-12-05T10:00:00Z' }, 'invalid_argument'],
    [{ action: 'set', entity_id: 'calendar.family', summary: 'x', start: 'tomorrow-ish', end: '2026-12-05T10:00:00Z' }, 'invalid_argument'],
    [{ action: 'set', entity_id: 'calendar.family', start: '2026-12-05T10:00:00Z' }, 'invalid_argument'],
  ],
  ha_manage_todo: [
    [{ action: 'set', entity_id: 'todo.shopping_list' }, 'invalid_argument'],
    [{ action: 'set', entity_id: 'todo.shopping_list', item: 'nope nope', status: 'completed' }, 'item_not_found'],
    [{ action: 'get', entity_id: 'todo.shopping_list', rename: 'x' }, 'invalid_argument'],
  ],
  ha_get_camera_image: [[{ entity_id: 'light.kitchen_ceiling_light' }, 'invalid_argument']],
  ha_manage_backup: [
    [{ action: 'delete', backup_id: 'nope', confirm: true }, 'invalid_argument'],
    [{ scope: 'edits', action: 'view', backup_id: 'e99999999' }, 'edit_not_found'],
    [{ action: 'create', folders: ['etc'] }, 'supervisor_refused'],
    [{ action: 'delete', via: 'supervisor', backup_id: 'b71e44d5', older_than_days: 30, confirm: true }, 'backup_too_new'],
  ],
  ha_manage_updates: [
    [{ action: 'get', entity_ids: ['light.kitchen_ceiling_light'] }, 'invalid_argument'],
    [{ action: 'get', entity_ids: ['update.nope_nope'] }, 'entity_not_found'],
    [{ action: 'install', entity_ids: ['update.garage_door_controller_firmware'], version: '1.0', confirm: true }, 'install_refused'],
    [{ action: 'install', categories: ['core'] }, 'invalid_argument'],
    [{ action: 'ignore_repair', domain: 'x', issue_id: 'y' }, 'invalid_argument'],  // ha_ignore_repair's form
    [{ action: 'ignore_repair', domain: 'x' }, 'invalid_argument'],
  ],
  ha_manage_hacs: [
    [{ action: 'info', repository_id: 'nope/nope' }, 'invalid_argument'],
    [{ action: 'add_repository', repository: 'not a repo', category: 'theme' }, 'hacs_add_failed'],
  ],
  ha_get_integration: [
    [{ entry_id: 'nope_nope' }, 'entry_not_found'],
    [{ include_diagnostics: true }, 'invalid_argument'],
  ],
  ha_set_integration: [
    [{ domain: 'sim_bridge', menu_choice: 'cloud', config: { account: 'sweep' } }, 'flow_aborted'],
    [{ domain: 'sim_bridge', menu_choice: 'manual', config: {} }, 'invalid_config'],
    [{ entry_id: 'nope_nope', enabled: false }, 'entry_not_found'],
    [{}, 'invalid_argument'],
  ],
  ha_manage_energy_prefs: [
    [{ mode: 'add_device', stat_consumption: 'sensor.no_such_meter' }, 'unknown_statistic'],
    [{ mode: 'set', config: { device_consumption: [] }, config_hash: '0000' }, 'stale_config_hash'],
  ],
  ha_manage_pipeline: [[{ action: 'get', pipeline_id: 'nope' }, 'pipeline_not_found']],
  ha_get_app: [
    [{ slug: 'nope_nope' }, 'supervisor_refused'],
    [{ slug: '../x' }, 'invalid_argument'],
  ],
  ha_manage_app: [
    [{ action: 'configure', slug: '45df7312_zigbee2mqtt', options: { serial: { baudrate: 'fast' } } }, 'invalid_options'],
    [{ action: 'explode', slug: 'core_mosquitto' }, 'invalid_argument'],
    [{ action: 'remove_repository', repository: 'nope' }, 'repository_not_found'],
    [{ action: 'install', slug: 'core_mosquitto' }, 'supervisor_refused'],
    [{ action: 'proxy', slug: 'core_mosquitto', path: '/', ingress: true }, 'invalid_argument'],
  ],
  ha_manage_radio: [
    [{ radio: 'zigbee', action: 'cluster_write', params: { cluster_id: 6, attribute: 0, value: 1 } }, 'invalid_argument'],
    [{ radio: 'zigbee', action: 'cluster_command', entity_id: 'update.desk_lamp_plug_firmware', params: { cluster_id: 8, command: 'on' } }, 'invalid_argument'],
    [{ radio: 'zigbee', action: 'reconfigure', device_id: 'nope_nope' }, 'invalid_argument'],
    [{ radio: 'zwave', action: 'explode' }, 'invalid_argument'],
    [{ radio: 'zwave', action: 'get_config_params', device_id: 'nope_nope' }, 'invalid_argument'],
    [{ radio: 'thread', action: 'delete_dataset', params: { dataset_id: '01JDEMODATASET000000000001' }, confirm: true }, 'dataset_preferred'],
  ],
};

// A value of the wrong type for a property's declared type.
function wrongTypeFor(schema) {
  switch (schema?.type) {
    case 'string': return 12345;
    case 'integer': case 'number': return 'not a number';
    case 'boolean': return 'not a boolean';
    case 'array': return 42;
    case 'object': return 'not an object';
    default: return { unexpected: true };  // enum-only properties
  }
}

// callTool() validates structuredContent (when present) against the cached outputSchema; a
// mismatch throws, which fails the test here. Then the error must be readable.
async function expectCleanError(client, name, args, code, label) {
  let r;
  try {
    r = await client.callTool({ name, arguments: args });
  } catch (e) {
    assert.fail(`${label}: ${name}(${JSON.stringify(args)}) made the SDK throw: ${e.message}`);
  }
  assert.equal(r.isError, true, `${label}: ${name}(${JSON.stringify(args)}) did not fail: ${r.content?.[0]?.text}`);
  const text = r.content.map((c) => c.text ?? '').join('');
  assert.ok(text.length > 0, `${label}: ${name}: empty error text`);
  if (r.structuredContent) {
    const { error } = r.structuredContent;
    assert.equal(typeof error?.code, 'string', `${label}: ${name}: structured error without code`);
    assert.equal(typeof error?.message, 'string', `${label}: ${name}: structured error without message`);
    assert.deepEqual(JSON.parse(text), r.structuredContent, `${label}: ${name}: text and structuredContent differ`);
    if (code) assert.equal(error.code, code, `${label}: ${name}: ${error.message}`);
    // HA's JSON bodies must not leak into the words: no `"}`, no `{"message"`.
    assert.doesNotMatch(error.message, /"\}|\{"|\\"/, `${label}: ${name}: JSON debris in "${error.message}"`);
    if (error.suggestion !== undefined) assert.ok(error.suggestion.length > 0, `${label}: ${name}: empty suggestion`);
  } else {
    assert.equal(code, null, `${label}: ${name}: expected a structured ${code} error, got text: ${text}`);
    assert.doesNotMatch(text, /\{"message"/, `${label}: ${name}: JSON debris in "${text}"`);
  }
  return r;
}

async function sweepDemoHome(client) {
  const { tools } = await client.listTools();  // caches every outputSchema validator in the client
  assert.deepEqual(tools.map((t) => t.name).filter((n) => !VALID[n]), [], 'tools without a sweep entry');
  let paths = 0;
  for (const tool of tools) {
    const props = Object.entries(tool.inputSchema.properties ?? {});
    for (const [prop, schema] of props) {
      await expectCleanError(client, tool.name, { ...VALID[tool.name], [prop]: wrongTypeFor(schema) }, null, 'schema');
      paths += 1;
    }
    await expectCleanError(client, tool.name, { ...VALID[tool.name], zz_unknown_argument: 1 }, 'invalid_argument', 'unknown argument');
    paths += 1;
    for (const [args, code] of OWN_FAILURES[tool.name] ?? []) {
      await expectCleanError(client, tool.name, args, code, 'own failure');
      paths += 1;
    }
  }
  return paths;
}

describe('error paths of every tool through the TypeScript SDK client', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  test('against the demo home (stdio)', async () => {
    const conn = await connectStdio(HAMCP_BIN, ['--demo'], 'hamcp-e2e-error-sweep');
    try {
      const paths = await sweepDemoHome(conn.client);
      assert.ok(paths > 80, `only ${paths} error paths swept`);
      // A bulk run's own record reads back through the output schema.
      const bulk = await conn.client.callTool({ name: 'ha_bulk_control', arguments: VALID.ha_bulk_control });
      const status = await conn.client.callTool({ name: 'ha_get_operation_status', arguments: { operation_id: bulk.structuredContent.operation_id } });
      assert.ok(!status.isError, status.content[0].text);
      // The session survives all of that.
      const ok = await conn.client.callTool({ name: 'ha_eval_template', arguments: { template: '{{ 20 + 22 }}' } });
      assert.equal(ok.structuredContent.result, '42');
    } finally {
      await conn.client.close();
    }
  });

  test('against a Home Assistant that cannot be reached (stdio)', async () => {
    // Port 1 on loopback: nothing listens, every connect is refused at once.
    const conn = await connectStdio(HAMCP_BIN, ['--ha-url', 'http://127.0.0.1:1', '--ha-token', 'sweep-token'],
      'hamcp-e2e-error-sweep-unreachable');
    try {
      const { tools } = await conn.client.listTools();
      const failing = tools.filter((t) => !WORKS_WITHOUT_HA.has(t.name));
      const results = await Promise.all(failing.map((t) => expectCleanError(conn.client, t.name, VALID[t.name], undefined, 'unreachable HA')));
      for (const r of results) assert.doesNotMatch(r.content[0].text, /sweep-token/, 'token in an error');
      for (const name of WORKS_WITHOUT_HA) {
        const r = await conn.client.callTool({ name, arguments: VALID[name] });
        assert.notEqual(r.isError, true, `${name} without HA: ${r.content?.[0]?.text}`);
        assert.doesNotMatch(r.content[0].text, /sweep-token/, `token in ${name}`);
      }
    } finally {
      await conn.client.close();
    }
  });
});

// The Inspector's --strict lint prints one "Warning:"/"Error:" block per finding on stderr
// (nothing when there is none) and exits 6 on error-severity findings.
describe('MCP Inspector schema-portability lint', { skip: !HAMCP_BIN && 'HAMCP_BIN not set' }, () => {
  test('hamcp --demo tools/list: 0 errors, 0 warnings', async () => {
    const require = createRequire(import.meta.url);
    const pkg = dirname(require.resolve('@modelcontextprotocol/inspector/package.json'));
    const cli = join(pkg, 'clients', 'cli', 'build', 'index.js');
    assert.match(readFileSync(cli, 'utf8'), /type-union/, 'this Inspector build has no portability lint');
    const child = spawn(process.execPath, [cli, '--cli', '--method', 'tools/list', '--strict', HAMCP_BIN, '--demo'], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, HOME: join(pkg, '..', '..', '.inspector-home') },  // keeps its catalog out of $HOME
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => { out += d; });
    child.stderr.on('data', (d) => { err += d; });
    const timer = setTimeout(() => child.kill('SIGKILL'), 60000);
    const code = await new Promise((resolve) => child.on('exit', resolve));
    clearTimeout(timer);
    assert.equal(code, 0, `inspector exited ${code}:\n${err}`);
    const listed = JSON.parse(out);
    assert.ok(listed.tools.length >= 14, out.slice(0, 200));
    assert.doesNotMatch(err, /^(Warning|Error): tool/m, `portability findings:\n${err}`);
    assert.doesNotMatch(err, /Schema portability|warnings? across/, err);
  });
});
