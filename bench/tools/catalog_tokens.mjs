// Measures hamcp's tools/list in tokens (o200k_base, via gpt-tokenizer), from
// a running hamcp (`hamcp --demo` over stdio, raw JSON-RPC), and checks the
// budgets the issues set: each issue's own tools (ISSUES below) and the whole
// tools/list <= 12,000. The per-family lines are information only.
//
//   HAMCP_BIN=build/hamcp node bench/tools/catalog_tokens.mjs [--json]
// Exit 1 when an issue's share or the whole list exceeds its budget, or a
// tool an issue names is not listed (2 when HAMCP_BIN is unset). The e2e lane
// (tests/e2e/run.sh) runs it.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const ENTITY_TOOLS = [
  'ha_search', 'ha_get_overview', 'ha_get_state', 'ha_call_service', 'ha_bulk_control', 'ha_get_operation_status',
  'ha_list_services', 'ha_call_event', 'ha_get_entity', 'ha_set_entity', 'ha_remove_entity', 'ha_eval_template',
  'ha_get_history', 'ha_get_logs',
];
const CONFIG_TOOLS = [
  'ha_config_get', 'ha_config_set', 'ha_config_remove', 'ha_get_automation_traces', 'ha_config_list_helpers',
  'ha_config_set_helper', 'ha_config_list_groups', 'ha_config_set_group', 'ha_config_remove_group',
  'ha_manage_blueprints',
];
// Each issue's listed tools and the budget its text sets ("this family's share
// <= 2,000 o200k tokens"; issue 14: "adds <= 500"). Hidden aliases cost nothing.
const ISSUES = [
  {
    issue: 4,
    what: 'entity tools',
    budget: 4000,
    tools: ENTITY_TOOLS,
  },
  {
    issue: 10,
    what: 'automations, scripts, scenes, helpers, groups, blueprints',
    budget: 2500,
    tools: CONFIG_TOOLS,
  },
  {
    issue: 11,
    what: 'dashboards, calendars, to-do lists, camera, energy, Assist',
    budget: 2000,
    tools: [
      'ha_get_dashboard', 'ha_set_dashboard', 'ha_manage_dashboard_resources', 'ha_manage_theme',
      'ha_manage_calendar', 'ha_manage_todo', 'ha_get_camera_image', 'ha_manage_energy_prefs', 'ha_manage_pipeline',
    ],
  },
  {
    issue: 12,
    what: 'registries, integrations, radios',
    budget: 2000,
    tools: ['ha_get_registry', 'ha_set_registry', 'ha_remove_registry', 'ha_get_integration', 'ha_set_integration',
      'ha_manage_radio'],
  },
  {
    issue: 13,
    what: 'system, backups, updates, HACS, add-ons',
    budget: 2000,
    tools: [
      'ha_get_system_health', 'ha_restart', 'ha_reload_core', 'ha_set_log_level', 'ha_report_issue',
      'ha_manage_backup', 'ha_manage_updates', 'ha_manage_hacs', 'ha_get_app', 'ha_manage_app',
    ],
  },
  {
    issue: 14,
    what: 'safety: audit log, settings',
    budget: 500,
    tools: ['ha_get_audit_log', 'ha_get_settings'],
  },
];
const WHOLE_BUDGET = 12000;
// Families (folders of src/tools), printed for information: no budget of their own.
const FAMILIES = [
  {
    name: 'entity family',
    tools: ENTITY_TOOLS,
  },
  {
    name: 'config family',
    tools: CONFIG_TOOLS,
  },
  {
    name: 'system family',
    tools: ['ha_get_system_health', 'ha_restart', 'ha_reload_core', 'ha_set_log_level', 'ha_report_issue'],
  },
  {
    name: 'registry family',
    tools: ['ha_get_registry', 'ha_set_registry', 'ha_remove_registry'],
  },
  {
    name: 'dashboard family',
    tools: [
      'ha_get_dashboard', 'ha_set_dashboard', 'ha_manage_dashboard_resources', 'ha_manage_theme',
    ],
  },
  {
    name: 'everyday family (calendar, todo, camera)',
    tools: ['ha_manage_calendar', 'ha_manage_todo', 'ha_get_camera_image'],
  },
  {
    name: 'safety family (audit log)',
    tools: ['ha_get_audit_log'],
  },
  {
    name: 'backup family (backups, edit journal, Supervisor backups)',
    tools: ['ha_manage_backup'],
  },
  {
    name: 'updates family (updates, HACS)',
    tools: ['ha_manage_updates', 'ha_manage_hacs'],
  },
  {
    name: 'integrations family (config entries, flows)',
    tools: ['ha_get_integration', 'ha_set_integration'],
  },
  {
    name: 'energy and voice families (energy prefs, Assist pipelines)',
    tools: ['ha_manage_energy_prefs', 'ha_manage_pipeline'],
  },
  {
    name: 'addons family (Supervisor)',
    tools: ['ha_get_app', 'ha_manage_app'],
  },
  {
    name: 'skills guide',
    tools: ['ha_get_skill_guide'],
  },
  {
    name: 'radio family (Z-Wave, Zigbee, Thread, Matter)',
    tools: ['ha_manage_radio'],
  },
  {
    name: 'settings (hamcp\'s effective configuration)',
    tools: ['ha_get_settings'],
  },
];
const bin = process.env.HAMCP_BIN;
if (!bin) {
  console.error('HAMCP_BIN is not set');
  process.exit(2);
}

async function listTools() {
  const child = spawn(bin, ['--demo'], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rl = createInterface({ input: child.stdout });
  const waiters = new Map();
  rl.on('line', (line) => {
    const msg = JSON.parse(line);
    if (msg.id !== undefined && waiters.has(msg.id)) waiters.get(msg.id)(msg);
  });
  const request = (id, method, params) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method} timed out`)), 15000);
      waiters.set(id, (m) => { clearTimeout(timer); resolve(m); });
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    });
  await request(1, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'catalog-tokens', version: '1' } });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
  const tools = [];
  let cursor;
  let id = 2;
  do {
    const r = await request(id++, 'tools/list', cursor ? { cursor } : {});
    tools.push(...r.result.tools);
    cursor = r.result.nextCursor;
  } while (cursor);
  child.stdin.end();
  child.kill('SIGTERM');
  return tools;
}

const tools = await listTools();
const tokensOf = (tool) => encode(JSON.stringify(tool)).length;  // a client puts the definition in context as JSON
const missing = [];
const share = (names) => {
  const rows = names.map((name) => {
    const tool = tools.find((t) => t.name === name);
    if (!tool) missing.push(name);
    return { name, tokens: tool ? tokensOf(tool) : 0 };
  });
  return { tokens: rows.reduce((sum, r) => sum + r.tokens, 0), tools: rows };
};
const families = FAMILIES.map((f) => ({ name: f.name, ...share(f.tools) }));
const issues = ISSUES.map((i) => ({ issue: i.issue, what: i.what, budget: i.budget, ...share(i.tools) }));
const all = encode(JSON.stringify(tools)).length;
const over = issues.filter((i) => i.tokens > i.budget).map((i) => `issue ${i.issue}: ${i.tokens} > ${i.budget}`);
if (all > WHOLE_BUDGET) over.push(`whole tools/list: ${all} > ${WHOLE_BUDGET}`);
for (const name of new Set(missing)) over.push(`${name}: named by a budget but not in tools/list`);
const unbudgeted = tools.map((t) => t.name).filter((n) => !ISSUES.some((i) => i.tools.includes(n)));
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({
    tokenizer: 'o200k_base', whole_budget: WHOLE_BUDGET, all_tools_tokens: all, tool_count: tools.length, issues,
    families, unbudgeted, over,
  }));
} else {
  const line = (label, tokens, note = '') => console.log(`${label.padEnd(34)} ${String(tokens).padStart(5)}${note}`);
  console.log('-- families (information)');
  for (const f of families) {
    for (const r of f.tools) line(r.name, r.tokens);
    line(`${f.name} total`, f.tokens);
  }
  console.log('-- issue budgets');
  for (const i of issues) {
    const verdict = i.tokens <= i.budget ? 'ok' : 'OVER';
    line(`issue ${i.issue}`, i.tokens, `  budget ${i.budget}  ${verdict}  (${i.tools.length} tools: ${i.what})`);
  }
  line('whole tools/list', all, `  budget ${WHOLE_BUDGET}  ${all <= WHOLE_BUDGET ? 'ok' : 'OVER'}  (${tools.length} tools)`);
  if (unbudgeted.length) console.log(`in no issue's budget: ${unbudgeted.join(', ')}`);
  for (const o of over) console.error(`over budget: ${o}`);
}
process.exit(over.length ? 1 : 0);
