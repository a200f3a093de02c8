// Measures each tool family's share of hamcp's tools/list in tokens
// (o200k_base, via gpt-tokenizer), from a running hamcp (`hamcp --demo` over
// stdio, raw JSON-RPC). Budgets: entity family <= 4,000 tokens, config family
// (issue 10) <= 2,500, the whole tools/list <= 12,000.
//
//   HAMCP_BIN=build/hamcp node bench/tools/catalog_tokens.mjs [--json]
// Exit 1 when a family or the whole list exceeds its budget.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';

const WHOLE_BUDGET = 12000;
const FAMILIES = [
  {
    name: 'entity family',
    budget: 4000,
    tools: [
      'ha_search', 'ha_get_overview', 'ha_get_state', 'ha_call_service', 'ha_bulk_control',
      'ha_get_operation_status', 'ha_list_services', 'ha_call_event', 'ha_get_entity', 'ha_set_entity',
      'ha_remove_entity', 'ha_eval_template', 'ha_get_history', 'ha_get_logs',
    ],
  },
  {
    name: 'config family',
    budget: 2500,
    tools: [
      'ha_config_get', 'ha_config_set', 'ha_config_remove', 'ha_get_automation_traces',
      'ha_config_list_helpers', 'ha_config_set_helper', 'ha_config_list_groups', 'ha_config_set_group',
      'ha_config_remove_group', 'ha_manage_blueprints',
    ],
  },
  {
    name: 'system family',
    budget: 1300,
    tools: ['ha_get_system_health', 'ha_restart', 'ha_reload_core', 'ha_set_log_level', 'ha_ignore_repair', 'ha_report_issue'],
  },
  {
    name: 'registry family',
    budget: 1300,
    tools: ['ha_get_registry', 'ha_set_registry', 'ha_remove_registry'],
  },
  {
    name: 'dashboard family',
    budget: 1300,
    tools: [
      'ha_get_dashboard', 'ha_set_dashboard', 'ha_remove_dashboard', 'ha_manage_dashboard_resources',
      'ha_manage_theme',
    ],
  },
  {
    name: 'everyday family (calendar, todo, camera)',
    budget: 1300,
    tools: [
      'ha_config_get_calendar_events', 'ha_config_set_calendar_event', 'ha_config_remove_calendar_event',
      'ha_get_todo', 'ha_set_todo_item', 'ha_remove_todo_item', 'ha_get_camera_image',
    ],
  },
  {
    name: 'safety family (audit log)',
    budget: 150,
    tools: ['ha_get_audit_log'],
  },
  {
    name: 'backup family (backups, edit journal, Supervisor backups)',
    budget: 650,
    tools: ['ha_manage_backup'],
  },
  {
    name: 'updates family (updates, HACS)',
    budget: 650,
    tools: ['ha_manage_updates', 'ha_manage_hacs'],
  },
  {
    name: 'integrations family (config entries, flows)',
    budget: 650,
    tools: ['ha_get_integration', 'ha_set_integration'],
  },
  {
    name: 'energy and voice families (energy prefs, Assist pipelines)',
    budget: 650,
    tools: ['ha_manage_energy_prefs', 'ha_manage_pipeline'],
  },
  {
    name: 'addons family (Supervisor)',
    budget: 650,
    tools: ['ha_get_app', 'ha_manage_app'],
  },
  {
    name: 'skills guide',
    budget: 220,
    tools: ['ha_get_skill_guide'],
  },
  {
    name: 'radio family (Z-Wave, Zigbee, Thread, Matter)',
    budget: 310,  // +60 for issue 12 item 5's second round of actions (radio2)
    tools: ['ha_manage_radio'],
  },
  {
    name: 'settings (hamcp\'s effective configuration)',
    budget: 90,
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
const families = [];
let within = true;
for (const family of FAMILIES) {
  const rows = [];
  let total = 0;
  for (const name of family.tools) {
    const tool = tools.find((t) => t.name === name);
    if (!tool) {
      console.error(`missing tool ${name} in tools/list`);
      process.exit(1);
    }
    // A client puts the tool definition into the model's context as JSON.
    const tokens = encode(JSON.stringify(tool)).length;
    rows.push({ name, tokens });
    total += tokens;
  }
  within &&= total <= family.budget;
  families.push({ name: family.name, budget: family.budget, tokens: total, tools: rows });
}
const all = encode(JSON.stringify(tools)).length;
within &&= all <= WHOLE_BUDGET;
if (process.argv.includes('--json')) {
  console.log(JSON.stringify({ tokenizer: 'o200k_base', whole_budget: WHOLE_BUDGET, all_tools_tokens: all, families }));
} else {
  for (const f of families) {
    for (const r of f.tools) console.log(`${r.name.padEnd(26)} ${String(r.tokens).padStart(5)}`);
    console.log(`${(f.name + ' total').padEnd(26)} ${String(f.tokens).padStart(5)}  (budget ${f.budget})`);
  }
  console.log(`${'whole tools/list'.padEnd(26)} ${String(all).padStart(5)}  (${tools.length} tools, budget ${WHOLE_BUDGET})`);
}
process.exit(within ? 0 : 1);
